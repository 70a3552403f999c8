import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import { encodeAnthropicRequest } from '../../providers/anthropic/encode-anthropic-request.js';
import { encodeBedrockChatRequest } from '../../providers/bedrock/encode-bedrock-chat-request.js';
import { encodeGeminiRequest } from '../../providers/gemini/encode-gemini-request.js';
import type { VendorCall } from '../../providers/vendor-adapter.js';
import { chatRequestToCanonical } from './chat-request-to-canonical.js';

function callFor(baseUrl: string, secret: string): VendorCall {
  return {
    channel: { baseUrl, secret, settings: {} },
    upstreamModelId: 'upstream-model',
    publicModelId: 'public-model',
    maxOutputTokens: 1024,
    stream: false,
    clock: () => 1_700_000_000_000,
  };
}

/** The three translated vendors' encoders, each given an OpenAI chat request translated as dispatch translates it. */
const encoders: Array<[string, (request: ChatCompletionRequest) => Promise<unknown>]> = [
  [
    'anthropic',
    async (request) =>
      encodeAnthropicRequest(chatRequestToCanonical(request), callFor('https://anthropic.example.test/v1', 'sk-ant')),
  ],
  [
    'gemini',
    async (request) =>
      encodeGeminiRequest(chatRequestToCanonical(request), callFor('https://gemini.example.test/v1beta', 'AIza')),
  ],
  [
    'bedrock',
    async (request) =>
      encodeBedrockChatRequest(
        chatRequestToCanonical(request),
        callFor('https://bedrock-runtime.us-east-1.amazonaws.com', 'AKIDEXAMPLE:secret'),
      ),
  ],
];

async function refusedParam(
  encode: (request: ChatCompletionRequest) => Promise<unknown>,
  fields: Record<string, unknown>,
): Promise<string | null> {
  try {
    await encode({ model: 'public-model', messages: [{ role: 'user', content: 'hi' }], ...fields });
  } catch (error) {
    if (error instanceof GatewayError && error.status === 400) return error.param;
    throw error;
  }
  return 'accepted';
}

describe.each(encoders)('the %s adapter', (_vendor, encode) => {
  it.each([
    ['service_tier', 'priority'],
    ['audio', { voice: 'alloy', format: 'wav' }],
    ['modalities', ['text', 'audio']],
    ['web_search_options', {}],
    ['prediction', { type: 'content', content: 'draft' }],
    ['moderation', { model: 'omni-moderation-latest' }],
  ])('refuses the price-changing field %s with a 400 naming it', async (field, value) => {
    expect(await refusedParam(encode, { [field]: value })).toBe(field);
  });

  // reasoning_effort is mapped per vendor (providers/plan-claude-thinking, gemini/encode-gemini-thinking-config).
  it.each([
    ['verbosity', 'low'],
    ['functions', [{ name: 'lookup' }]],
    ['function_call', 'auto'],
    ['n', 2],
    ['logprobs', true],
    ['logit_bias', { '50256': -100 }],
  ])('refuses the unmapped field %s rather than dropping it', async (field, value) => {
    expect(await refusedParam(encode, { [field]: value })).toBe(field);
  });

  it('accepts the fields that change nothing it could honour (service_tier auto, store, metadata)', async () => {
    expect(
      await refusedParam(encode, { service_tier: 'auto', store: true, metadata: { a: 'b' }, modalities: ['text'] }),
    ).toBe('accepted');
  });
});
