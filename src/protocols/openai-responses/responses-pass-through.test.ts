import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../accounts/secret-box.js';
import type { RoutableChannel } from '../../routing/routing-table.js';
import { createReasoningSealer } from '../shared/reasoning-sealer.js';
import { encodeResponsesCallId, plainCallIdOf } from './responses-call-id.js';
import { createResponsesPassThrough, type ResponsesPassThroughChain } from './responses-pass-through.js';

const sealer = createReasoningSealer(createSecretBox('gateway secret'));
const seal = sealer.seal.bind(sealer);
/** A Gemini call's thoughtSignature (standard base64, as Gemini sends it). */
const geminiArtefact = {
  producer: 'gemini',
  signature: Buffer.from('GEMINI-SIGNATURE-'.repeat(20)).toString('base64'),
};

const openAiChannel: RoutableChannel = {
  id: 'ch-openai',
  name: 'openai',
  protocol: 'openai',
  baseUrl: 'http://vendor.test/v1',
  secret: 'sk-channel',
  priority: 0,
  weight: 1,
  ownedBy: 'openai',
  modelMapping: new Map(),
  settings: { responsesApi: 'true' },
};

/** The input items a Responses client sends back after a Gemini channel answered a function call. */
function geminiTurnItems(callId: string): Array<Record<string, unknown>> {
  return [
    { role: 'user', content: 'weather in Paris?' },
    { type: 'function_call', id: 'fc_1', call_id: callId, name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: callId, output: 'sunny' },
  ];
}

/** The body the pass-through sends the OpenAI channel. */
function upstreamBody(body: Record<string, unknown>, chain: ResponsesPassThroughChain | null = null) {
  const passThrough = createResponsesPassThrough({
    body,
    responseId: 'resp_gateway',
    model: 'mixed-model',
    chain,
    isGatewaySealed: () => false,
    onFinalResponse: () => Promise.resolve(),
  });
  const encoded = passThrough.encode(openAiChannel, 'gpt-4o');
  return JSON.parse(String(encoded.body)) as { input: Array<Record<string, unknown>> };
}

describe('Responses pass-through of a conversation a Gemini channel began', () => {
  const carryingId = encodeResponsesCallId('call_gemini_0_0', geminiArtefact, seal);

  it('is set up with an id longer than OpenAI takes', () => {
    expect(carryingId.length).toBeGreaterThan(64);
    expect(plainCallIdOf(carryingId)).toBe('call_gemini_0_0');
    expect(plainCallIdOf('call_abc')).toBe('call_abc');
  });

  it("gives the OpenAI channel the plain vendor id on the call and on its output, in the request's input", () => {
    const body = upstreamBody({ model: 'mixed-model', input: geminiTurnItems(carryingId) });
    const callIds = body.input.filter((item) => item.call_id !== undefined).map((item) => item.call_id);
    expect(callIds).toEqual(['call_gemini_0_0', 'call_gemini_0_0']);
    expect(body.input[1]).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}' });
  });

  it('does the same for the replayed items of a chain stored from the Gemini channel', () => {
    const chain: ResponsesPassThroughChain = {
      previousResponseId: 'resp_previous',
      vendorContinuation: null,
      items: geminiTurnItems(carryingId),
    };
    const body = upstreamBody({ model: 'mixed-model', input: 'and tomorrow?' }, chain);
    expect(body.input.map((item) => item.call_id).filter((id) => id !== undefined)).toEqual([
      'call_gemini_0_0',
      'call_gemini_0_0',
    ]);
    expect(body.input.at(-1)).toEqual({ role: 'user', content: 'and tomorrow?' });
  });

  it("keeps an OpenAI call's own id as it is", () => {
    const body = upstreamBody({ model: 'mixed-model', input: geminiTurnItems('call_openai_own') });
    expect(body.input[1]?.call_id).toBe('call_openai_own');
    expect(body.input[2]?.call_id).toBe('call_openai_own');
  });
});
