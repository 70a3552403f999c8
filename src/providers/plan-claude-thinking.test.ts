import { describe, expect, it } from 'vitest';
import type { CanonicalReasoningEffort } from '../core/canonical/canonical-request.js';
import { GatewayError } from '../core/gateway-error.js';
import type { ChatCompletionRequest } from '../core/openai-chat-request.js';
import { chatRequestToCanonical } from '../protocols/openai-chat/chat-request-to-canonical.js';
import { encodeAnthropicRequest } from './anthropic/encode-anthropic-request.js';
import type { VendorCall } from './vendor-adapter.js';

function callFor(overrides: Partial<VendorCall> = {}): VendorCall {
  return {
    channel: { baseUrl: 'https://anthropic.example.test/v1', secret: 'sk-ant-secret', settings: {} },
    upstreamModelId: 'claude-sonnet-4-5-20250929',
    publicModelId: 'claude-sonnet-4-5',
    maxOutputTokens: 64_000,
    stream: false,
    clock: () => 1_700_000_000_000,
    ...overrides,
  };
}

function encodedBody(fields: Partial<ChatCompletionRequest>, call: VendorCall = callFor()): Record<string, unknown> {
  const request = chatRequestToCanonical({
    model: 'claude-sonnet-4-5',
    messages: [{ role: 'user', content: 'Think.' }],
    ...fields,
  });
  return JSON.parse(encodeAnthropicRequest(request, call).body) as Record<string, unknown>;
}

function refusedParam(fields: Partial<ChatCompletionRequest>, call: VendorCall = callFor()): string | null {
  try {
    encodedBody(fields, call);
  } catch (error) {
    if (error instanceof GatewayError && error.status === 400) return error.param;
    throw error;
  }
  return 'accepted';
}

describe('a reasoning effort to Claude (planClaudeThinking through the Anthropic encoder)', () => {
  it.each<[CanonicalReasoningEffort, number]>([
    ['minimal', 1_024],
    ['low', 1_024],
    ['medium', 8_192],
    ['high', 24_576],
    ['xhigh', 32_768],
    ['max', 63_999],
  ])('maps %s to thinking with a %i-token budget below max_tokens', (effort, budget) => {
    const body = encodedBody({ reasoning_effort: effort } as Partial<ChatCompletionRequest>);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: budget });
    expect(body.max_tokens).toBe(64_000);
  });

  it('sends no thinking for none, nor without an effort', () => {
    expect(encodedBody({ reasoning_effort: 'none' } as Partial<ChatCompletionRequest>)).not.toHaveProperty('thinking');
    expect(encodedBody({})).not.toHaveProperty('thinking');
  });

  it("lowers the budget under the client's own cap rather than raising the cap, and refuses a cap too small to think", () => {
    const body = encodedBody({ reasoning_effort: 'high', max_completion_tokens: 2_000 });
    expect(body).toMatchObject({ max_tokens: 2_000, thinking: { type: 'enabled', budget_tokens: 1_999 } });
    expect(refusedParam({ reasoning_effort: 'low', max_completion_tokens: 1_024 })).toBe('max_tokens');
  });

  it('gives the answer 4,096 tokens beside the budget when neither the client nor the catalog caps the output', () => {
    const body = encodedBody({ reasoning_effort: 'medium' }, callFor({ maxOutputTokens: undefined }));
    expect(body).toMatchObject({ max_tokens: 8_192 + 4_096, thinking: { budget_tokens: 8_192 } });
  });

  it('refuses an effort for Claude models that cannot think, and sends it for 3.7 and for names it does not know', () => {
    for (const model of [
      'claude-3-5-sonnet-20241022',
      'claude-3-opus-20240229',
      'claude-3-haiku-20240307',
      'claude-2.1',
      'claude-instant-1.2',
    ]) {
      expect(refusedParam({ reasoning_effort: 'low' }, callFor({ upstreamModelId: model }))).toBe('reasoning_effort');
    }
    for (const model of ['claude-3-7-sonnet-20250219', 'claude-opus-4-1-20250805', 'claude-sim']) {
      expect(refusedParam({ reasoning_effort: 'low' }, callFor({ upstreamModelId: model }))).toBe('accepted');
    }
  });

  it('refuses what Anthropic forbids with thinking, naming it: temperature other than 1, top_p below 0.95, a forced tool', () => {
    const tools: ChatCompletionRequest['tools'] = [{ type: 'function', function: { name: 'lookup' } }];
    expect(refusedParam({ reasoning_effort: 'low', temperature: 0.2 })).toBe('temperature');
    expect(refusedParam({ reasoning_effort: 'low', temperature: 1 })).toBe('accepted');
    expect(refusedParam({ reasoning_effort: 'low', top_p: 0.9 })).toBe('top_p');
    expect(refusedParam({ reasoning_effort: 'low', top_p: 0.95 })).toBe('accepted');
    expect(refusedParam({ reasoning_effort: 'low', tools, tool_choice: 'required' })).toBe('tool_choice');
    expect(refusedParam({ reasoning_effort: 'low', tools, tool_choice: 'auto' })).toBe('accepted');
    // The same sampling without an effort is not thinking's business.
    expect(refusedParam({ temperature: 0.2 })).toBe('accepted');
  });
});
