import { describe, expect, it } from 'vitest';
import type { CanonicalReasoningEffort } from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';
import { chatRequestToCanonical } from '../../protocols/openai-chat/chat-request-to-canonical.js';
import type { VendorCall } from '../vendor-adapter.js';
import { encodeGeminiRequest } from './encode-gemini-request.js';
import { encodeGeminiThinkingConfig } from './encode-gemini-thinking-config.js';

function refusedParam(effort: CanonicalReasoningEffort, model: string): string | null {
  try {
    encodeGeminiThinkingConfig(effort, model);
  } catch (error) {
    if (error instanceof GatewayError && error.status === 400) return error.param;
    throw error;
  }
  return 'accepted';
}

describe('encodeGeminiThinkingConfig', () => {
  it.each<[CanonicalReasoningEffort, number, number]>([
    ['none', 0, 0],
    ['minimal', 1_024, 1_024],
    ['low', 1_024, 1_024],
    ['medium', 8_192, 8_192],
    ['high', 24_576, 24_576],
    ['xhigh', 24_576, 32_768],
    ['max', 24_576, 32_768],
  ])(
    'gives Gemini 2.5 for %s the budget %i (Flash) / %i (Pro), capped at the model’s largest',
    (effort, flashBudget, proBudget) => {
      expect(encodeGeminiThinkingConfig(effort, 'gemini-2.5-flash')).toEqual({ thinkingBudget: flashBudget });
      if (effort !== 'none')
        expect(encodeGeminiThinkingConfig(effort, 'gemini-2.5-pro')).toEqual({ thinkingBudget: proBudget });
    },
  );

  it.each<[CanonicalReasoningEffort, 'LOW' | 'HIGH']>([
    ['minimal', 'LOW'],
    ['low', 'LOW'],
    ['medium', 'HIGH'],
    ['high', 'HIGH'],
    ['xhigh', 'HIGH'],
    ['max', 'HIGH'],
  ])('gives Gemini 3 for %s the level %s', (effort, level) => {
    expect(encodeGeminiThinkingConfig(effort, 'gemini-3-pro-preview')).toEqual({ thinkingLevel: level });
  });

  it("sends a client's own budget exactly to a budget model (capped at its largest), and levels to Gemini 3", () => {
    expect(encodeGeminiThinkingConfig('low', 'gemini-2.5-flash', 2048)).toEqual({ thinkingBudget: 2048 });
    expect(encodeGeminiThinkingConfig('xhigh', 'gemini-2.5-flash', 30_000)).toEqual({ thinkingBudget: 24_576 });
    expect(encodeGeminiThinkingConfig('low', 'gemini-3-pro-preview', 2048)).toEqual({ thinkingLevel: 'LOW' });
  });

  it('sends nothing without an effort', () => {
    expect(encodeGeminiThinkingConfig(null, 'gemini-2.5-flash')).toBeUndefined();
    expect(encodeGeminiThinkingConfig(null, 'gemini-1.5-pro')).toBeUndefined();
  });

  it('refuses, naming reasoning_effort: models that cannot think, and none where thinking cannot be turned off', () => {
    expect(refusedParam('low', 'gemini-1.5-pro')).toBe('reasoning_effort');
    expect(refusedParam('low', 'gemini-2.0-flash')).toBe('reasoning_effort');
    expect(refusedParam('low', 'gemini-2.0-flash-thinking-exp')).toBe('accepted');
    expect(refusedParam('none', 'gemini-2.5-pro')).toBe('reasoning_effort');
    expect(refusedParam('none', 'gemini-3-pro-preview')).toBe('reasoning_effort');
  });

  it('is sent as generationConfig.thinkingConfig by the Gemini encoder, beside the other settings', async () => {
    const call: VendorCall = {
      channel: { baseUrl: 'https://gemini.example.test/v1beta', secret: 'AIza-secret', settings: {} },
      upstreamModelId: 'gemini-2.5-flash',
      publicModelId: 'gemini-flash',
      maxOutputTokens: 65_536,
      stream: false,
      clock: () => 1_700_000_000_000,
    };
    const request = chatRequestToCanonical({
      model: 'gemini-flash',
      messages: [{ role: 'user', content: 'hi' }],
      reasoning_effort: 'medium',
      temperature: 0.4,
    });
    const body = JSON.parse((await encodeGeminiRequest(request, call)).body) as { generationConfig: unknown };
    expect(body.generationConfig).toEqual({ temperature: 0.4, thinkingConfig: { thinkingBudget: 8_192 } });
  });
});
