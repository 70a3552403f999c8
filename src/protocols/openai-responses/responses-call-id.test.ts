import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../accounts/secret-box.js';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
import { createReasoningSealer } from '../shared/reasoning-sealer.js';
import { encodeResponse } from './encode-response.js';
import { parseResponsesRequest } from './parse-responses-request.js';
import type { ResponseEncodingContext } from './response-encoding-context.js';
import { decodeResponsesCallId, encodeResponsesCallId } from './responses-call-id.js';
import { createResponsesStreamEncoder } from './responses-stream-encoder.js';

const sealer = createReasoningSealer(createSecretBox('gateway secret'));
const seal = sealer.seal.bind(sealer);
const unseal = sealer.unseal.bind(sealer);
const gemini = { producer: 'gemini', signature: 'c2lnOmdldF93ZWF0aGVyOvv/+A==' };

/** A context like the route's for a client that did not ask for `reasoning.encrypted_content`. */
function contextWithoutInclude(): ResponseEncodingContext {
  let counter = 0;
  return {
    responseId: 'resp_1',
    createdAt: 0,
    echo: parseResponsesRequest({ model: 'm', input: 'x' }).echo,
    createItemId: (prefix) => `${prefix}_${++counter}`,
    nowSeconds: () => 0,
    sealToolCallArtefact: seal,
  };
}

const geminiCallParts: CanonicalStreamPart[] = [
  { type: 'tool-call-start', blockIndex: 0, callId: 'call_r_0_0', name: 'get_weather' },
  { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"city":"Paris"}' },
  { type: 'tool-call-end', blockIndex: 0, artefact: gemini },
  { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'STOP' } },
];

describe('Responses call ids that carry a vendor artefact', () => {
  it('round-trips the call id and the signature, in id-safe characters, at about the signature length plus 250 (the seal: salt, nonce and tag)', () => {
    const long = { producer: 'gemini', signature: Buffer.alloc(3000, 7).toString('base64') };
    for (const artefact of [gemini, long]) {
      const shown = encodeResponsesCallId('call_r_0_0', artefact, seal);
      expect(shown).toMatch(/^call_r_0_0__gsig\d+_[A-Za-z0-9_-]+$/);
      expect(shown.length).toBeLessThan('call_r_0_0'.length + artefact.signature.length + 250);
      expect(decodeResponsesCallId(shown, unseal)).toEqual({ callId: 'call_r_0_0', artefact });
    }
  });

  it('keeps ids plain without a signature, with redacted data or with a signature that would not come back byte for byte', () => {
    expect(encodeResponsesCallId('call_1', undefined, seal)).toBe('call_1');
    expect(encodeResponsesCallId('call_1', { producer: 'gemini' }, seal)).toBe('call_1');
    expect(encodeResponsesCallId('call_1', { producer: 'anthropic', signature: 'c2ln', redactedData: 'x' }, seal)).toBe(
      'call_1',
    );
    expect(encodeResponsesCallId('call_1', { producer: 'gemini', signature: 'not base64!' }, seal)).toBe('call_1');
    expect(decodeResponsesCallId('call_1', unseal)).toEqual({ callId: 'call_1' });
  });

  it('gives no artefact for a foreign gateway, an edited signature, a moved seal or a cut id, and keeps the id whole', () => {
    const shown = encodeResponsesCallId('call_r_0_0', gemini, seal);
    const foreign = createReasoningSealer(createSecretBox('other secret'));
    const other = encodeResponsesCallId('call_r_0_1', gemini, seal);
    const edited = `${shown.slice(0, -3)}${shown.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`;
    const moved = `call_r_0_1${shown.slice('call_r_0_0'.length)}`;
    const garbled = [
      shown.replace('__gsig', '__gsigx'),
      shown.slice(0, shown.indexOf('__gsig') + 12),
      `${shown.slice(0, shown.indexOf('__gsig'))}__gsig99999_abc`,
    ];
    expect(decodeResponsesCallId(shown, (sealed) => foreign.unseal(sealed))).toEqual({ callId: shown });
    expect(decodeResponsesCallId(shown, undefined)).toEqual({ callId: shown });
    for (const id of [edited, moved, ...garbled]) expect(decodeResponsesCallId(id, unseal)).toEqual({ callId: id });
    expect(decodeResponsesCallId(other, unseal).artefact).toEqual(gemini);
  });

  it('lets a client that sends back only the function call (no reasoning item) give Gemini its signature again', () => {
    const response = encodeResponse(foldStreamParts(geminiCallParts), contextWithoutInclude());
    expect(response.output.map((item) => item.type)).toEqual(['function_call']);
    const [call] = response.output;
    if (call?.type !== 'function_call') throw new Error('expected a function call');
    expect(call.call_id).not.toBe('call_r_0_0');
    const replayed = parseResponsesRequest(
      {
        model: 'm',
        input: [
          { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
          { type: 'function_call_output', call_id: call.call_id, output: 'sunny' },
        ],
      },
      { unsealReasoning: unseal },
    );
    expect(replayed.request.messages).toStrictEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            callId: 'call_r_0_0',
            name: 'get_weather',
            arguments: '{"city":"Paris"}',
            artefact: gemini,
          },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', callId: 'call_r_0_0', output: 'sunny' }] },
    ]);
  });

  it('announces a streamed call with the same carrying call_id its done item and the final response have', () => {
    const encoder = createResponsesStreamEncoder(contextWithoutInclude());
    const events = [...encoder.start(), ...geminiCallParts.flatMap((part) => encoder.push(part)), ...encoder.end()];
    const added = events.find((event) => event.type === 'response.output_item.added') as { item?: unknown };
    const done = events.find((event) => event.type === 'response.output_item.done') as { item?: unknown };
    const completed = events.at(-1) as { response?: { output?: unknown[] } };
    const callIdOf = (item: unknown): unknown => (item as { call_id?: unknown }).call_id;
    const shown = callIdOf(added.item);
    expect(typeof shown === 'string' && decodeResponsesCallId(shown, unseal)).toEqual({
      callId: 'call_r_0_0',
      artefact: gemini,
    });
    expect(callIdOf(done.item)).toBe(shown);
    expect(callIdOf(completed.response?.output?.[0])).toBe(shown);
  });

  it('still refuses a plain call_id over 64 characters', () => {
    expect(() =>
      parseResponsesRequest({
        model: 'm',
        input: [{ type: 'function_call_output', call_id: 'c'.repeat(65), output: 'x' }],
      }),
    ).toThrow(/call_id/);
  });
});
