import type { CanonicalStreamPart } from '../../../src/core/canonical/canonical-stream-part.js';
import type { ResponseEncodingContext } from '../../../src/protocols/openai-responses/response-encoding-context.js';
import type { ResponseEcho } from '../../../src/protocols/openai-responses/responses-wire-types.js';

const usage = {
  inputTokens: 20,
  cacheReadInputTokens: 8,
  cacheWriteInputTokens: 2,
  outputTokens: 12,
  reasoningTokens: 5,
};

/** Scripted canonical answers, as a vendor adapter would produce them, named after what they exercise. */
export const scriptedAnswers: Record<
  | 'text'
  | 'function call'
  | 'whole function calls, one with a Gemini artefact'
  | 'reasoning and text'
  | 'max-tokens cut-off',
  CanonicalStreamPart[]
> = {
  text: [
    { type: 'response-start', vendorResponseId: 'chatcmpl-vendor', vendorModel: 'vendor-model' },
    { type: 'text-start', blockIndex: 0 },
    { type: 'text-delta', blockIndex: 0, text: 'Hello' },
    { type: 'text-delta', blockIndex: 0, text: ', world' },
    { type: 'text-end', blockIndex: 0 },
    { type: 'finish', finish: { reason: 'stop', rawReason: 'stop' } },
    { type: 'usage', usage },
  ],
  'function call': [
    { type: 'tool-call-start', blockIndex: 0, callId: 'call_weather', name: 'get_weather' },
    { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"ci' },
    { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: 'ty":"Par' },
    { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: 'is"}' },
    { type: 'tool-call-end', blockIndex: 0 },
    { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_calls' } },
    { type: 'usage', usage },
  ],
  'whole function calls, one with a Gemini artefact': [
    { type: 'tool-call-start', blockIndex: 0, callId: 'call_r_0_0', name: 'get_weather' },
    { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"city":"Paris"}' },
    { type: 'tool-call-end', blockIndex: 0, artefact: { producer: 'gemini', signature: 'c2lnLTE=' } },
    { type: 'tool-call-start', blockIndex: 1, callId: 'call_r_0_1', name: 'get_time' },
    { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '{}' },
    { type: 'tool-call-end', blockIndex: 1 },
    { type: 'usage', usage },
    { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'STOP' } },
  ],
  'reasoning and text': [
    { type: 'reasoning-start', blockIndex: 0 },
    { type: 'reasoning-delta', blockIndex: 0, text: 'The user greets; ' },
    { type: 'reasoning-delta', blockIndex: 0, text: 'greet back.' },
    { type: 'reasoning-end', blockIndex: 0, artefact: { producer: 'anthropic', signature: 'EqQBCgIYAhIM' } },
    { type: 'text-start', blockIndex: 1 },
    { type: 'text-delta', blockIndex: 1, text: 'Hi there!' },
    { type: 'text-end', blockIndex: 1 },
    { type: 'usage', usage },
    { type: 'finish', finish: { reason: 'stop', rawReason: 'end_turn' } },
  ],
  'max-tokens cut-off': [
    { type: 'text-start', blockIndex: 0 },
    { type: 'text-delta', blockIndex: 0, text: 'Once upon a' },
    { type: 'finish', finish: { reason: 'length', rawReason: 'max_tokens' } },
    { type: 'usage', usage },
  ],
};

/** The echo of a plain request for `model`. */
export function plainEcho(model: string): ResponseEcho {
  return {
    model,
    instructions: null,
    tools: [],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    temperature: null,
    top_p: null,
    max_output_tokens: null,
    metadata: {},
    text: { format: { type: 'text' } },
    reasoning: { effort: null, summary: null },
    truncation: 'disabled',
    store: true,
    previous_response_id: null,
  };
}

/** A context with counter ids, a fixed clock and a readable fake seal, so two encodings of one answer are equal. */
export function deterministicContext(echo: ResponseEcho = plainEcho('gpt-test')): ResponseEncodingContext {
  let counter = 0;
  return {
    responseId: 'resp_test1',
    createdAt: 1_700_000_000,
    echo,
    createItemId: (prefix) => `${prefix}_${++counter}`,
    nowSeconds: () => 1_700_000_005,
    sealReasoning: ({ artefact, callId }) =>
      `sealed:${JSON.stringify(callId === undefined ? artefact : { ...artefact, callId })}`,
  };
}
