import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import { GatewayError } from '../core/gateway-error.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { DispatchRequest } from './dispatch-request.js';
import { fitRequestToRoutedModel, gatewayChosenOutputCap, routedModelLimits } from './fit-request-to-routed-model.js';

/** Claude Code's request in canonical terms: 32,000 output tokens and a reasoning wish (Messages `thinking`). */
const claudeCodeRequest: CanonicalRequest = {
  model: 'claude-sonnet-4-5',
  instructions: null,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  toolChoice: null,
  parallelToolCalls: null,
  outputFormat: { type: 'text' },
  reasoningEffort: 'high',
  reasoningOptional: true,
  maxOutputTokens: 32_000,
  sampling: { temperature: null, topP: null },
  metadata: null,
  stream: true,
};

const gpt4oLimits = { maxOutputTokens: 16_384, reasoning: false };

describe('fitRequestToRoutedModel', () => {
  it("lowers an output cap above the routed model's and drops an optional reasoning wish for a model without reasoning", () => {
    const fitted = fitRequestToRoutedModel(claudeCodeRequest, gpt4oLimits);
    expect(fitted).toEqual({ ...claudeCodeRequest, maxOutputTokens: 16_384, reasoningEffort: null });
  });

  it("refuses chat's or Responses' reasoning effort for a model without reasoning, naming it", () => {
    const chatRequest = { ...claudeCodeRequest, reasoningOptional: undefined, reasoningEffort: 'low' as const };
    expect(() => fitRequestToRoutedModel(chatRequest, gpt4oLimits)).toThrow(GatewayError);
    try {
      fitRequestToRoutedModel(chatRequest, gpt4oLimits);
    } catch (error) {
      expect((error as GatewayError).toBody().error).toMatchObject({
        param: 'reasoning_effort',
        code: 'invalid_request_error',
      });
    }
    // `none` asks for what such a model does anyway.
    expect(fitRequestToRoutedModel({ ...chatRequest, reasoningEffort: 'none' }, gpt4oLimits).reasoningEffort).toBe(
      null,
    );
  });

  it('leaves a request within the limits, or with limits the catalog does not know, as it is', () => {
    const within = { ...claudeCodeRequest, maxOutputTokens: 1_000 };
    expect(fitRequestToRoutedModel(within, { maxOutputTokens: 64_000, reasoning: true })).toBe(within);
    expect(fitRequestToRoutedModel(claudeCodeRequest, { maxOutputTokens: undefined, reasoning: undefined })).toBe(
      claudeCodeRequest,
    );
    const noCap = { ...claudeCodeRequest, maxOutputTokens: null, reasoningEffort: null };
    expect(fitRequestToRoutedModel(noCap, gpt4oLimits)).toBe(noCap);
  });
});

describe('routedModelLimits', () => {
  const request = {
    modelId: 'claude-sonnet-4-5',
    maxOutputTokens: 64_000,
    modelReasoning: true,
  } as Pick<DispatchRequest, 'modelId' | 'maxOutputTokens' | 'modelReasoning'> as DispatchRequest;

  it('takes the limits of the model the channel maps the public id to, else the public model’s', () => {
    const mapped = { upstreamModelLimits: new Map([['claude-sonnet-4-5', gpt4oLimits]]) } as Partial<RoutableChannel>;
    expect(routedModelLimits(request, mapped as RoutableChannel)).toEqual(gpt4oLimits);
    expect(routedModelLimits(request, {} as RoutableChannel)).toEqual({ maxOutputTokens: 64_000, reasoning: true });
    const larger = {
      upstreamModelLimits: new Map([['claude-sonnet-4-5', { maxOutputTokens: 128_000, reasoning: true }]]),
    };
    expect(routedModelLimits(request, larger as Partial<RoutableChannel> as RoutableChannel).maxOutputTokens).toBe(
      64_000,
    );
  });
});

describe('gatewayChosenOutputCap', () => {
  const request = { modelId: 'm', maxOutputTokens: 64_000 } as Pick<DispatchRequest, 'modelId' | 'maxOutputTokens'>;

  it("is the public model's cap lowered to the routed model's, never raised above what the hold was priced from", () => {
    expect(gatewayChosenOutputCap(request as DispatchRequest, gpt4oLimits)).toBe(16_384);
    expect(gatewayChosenOutputCap(request as DispatchRequest, { maxOutputTokens: 128_000 })).toBe(64_000);
    const unknownPublic = { modelId: 'm' } as DispatchRequest;
    expect(gatewayChosenOutputCap(unknownPublic, { maxOutputTokens: 128_000 })).toBeUndefined();
  });
});
