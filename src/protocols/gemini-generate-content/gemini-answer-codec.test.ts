import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../accounts/secret-box.js';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
import { createReasoningSealer } from '../shared/reasoning-sealer.js';
import { createGeminiAnswerCodec } from './gemini-answer-codec.js';
import type { GeminiEncodingContext } from './gemini-encoding-context.js';
import { parseGeminiRequest } from './parse-gemini-request.js';

const sealer = createReasoningSealer(createSecretBox('gateway secret'));

function contextOf(overrides: Partial<GeminiEncodingContext> = {}): GeminiEncodingContext {
  return {
    model: 'gemini-test',
    responseId: 'resp1',
    sealArtefact: sealer.seal,
    includeThoughts: false,
    streamFraming: 'sse',
    ...overrides,
  };
}

const usage = {
  inputTokens: 10,
  cacheReadInputTokens: 4,
  cacheWriteInputTokens: 0,
  outputTokens: 9,
  reasoningTokens: 3,
};

/** Reasoning signed by Anthropic, text, then a Gemini-signed tool call. */
const parts: CanonicalStreamPart[] = [
  { type: 'response-start' },
  { type: 'reasoning-start', blockIndex: 0 },
  { type: 'reasoning-delta', blockIndex: 0, text: 'think' },
  { type: 'reasoning-end', blockIndex: 0, artefact: { producer: 'anthropic', signature: 'EqQB' } },
  { type: 'text-start', blockIndex: 1 },
  { type: 'text-delta', blockIndex: 1, text: 'Hel' },
  { type: 'text-delta', blockIndex: 1, text: 'lo' },
  { type: 'text-end', blockIndex: 1 },
  { type: 'tool-call-start', blockIndex: 2, callId: 'call_a', name: 'get_weather' },
  { type: 'tool-call-delta', blockIndex: 2, argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', blockIndex: 2, argumentsDelta: '"Paris"}' },
  { type: 'tool-call-end', blockIndex: 2, artefact: { producer: 'gemini', signature: 'Z2Vt' } },
  { type: 'usage', usage },
  { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
];

interface Chunk {
  candidates: Array<{ content: { role: string; parts: Array<Record<string, unknown>> }; finishReason?: string }>;
  usageMetadata?: Record<string, number>;
}

function streamFrames(context: GeminiEncodingContext, input: CanonicalStreamPart[] = parts): string[] {
  const encoder = createGeminiAnswerCodec(context).createStreamEncoder();
  return [...encoder.start(), ...input.flatMap((part) => encoder.push(part)), ...encoder.end()];
}

describe('createGeminiAnswerCodec().encodeAnswer', () => {
  it('writes the parts, the finish, Gemini usage, and signatures: Gemini’s as they came, others sealed', () => {
    const body = JSON.parse(createGeminiAnswerCodec(contextOf()).encodeAnswer(foldStreamParts(parts))) as Chunk;
    const [reasoning, text, call] = body.candidates[0]?.content.parts ?? [];
    // Another vendor's signed reasoning shows its text, which its signature is checked against on replay.
    expect(reasoning).toMatchObject({ text: 'think', thought: true });
    expect(sealer.unseal(String(reasoning?.thoughtSignature))).toEqual({
      artefact: { producer: 'anthropic', signature: 'EqQB' },
    });
    expect(text).toEqual({ text: 'Hello' });
    expect(call).toEqual({
      functionCall: { id: 'call_a', name: 'get_weather', args: { city: 'Paris' } },
      thoughtSignature: 'Z2Vt',
    });
    expect(body.candidates[0]?.finishReason).toBe('STOP');
    expect(body.usageMetadata).toEqual({
      promptTokenCount: 10,
      cachedContentTokenCount: 4,
      candidatesTokenCount: 6,
      thoughtsTokenCount: 3,
      totalTokenCount: 19,
    });
  });

  it('gives back what the client replays: the same calls, ids and artefacts', () => {
    const body = JSON.parse(createGeminiAnswerCodec(contextOf()).encodeAnswer(foldStreamParts(parts))) as Chunk;
    const modelTurn = body.candidates[0]?.content;
    const { request } = parseGeminiRequest(
      {
        contents: [
          { role: 'user', parts: [{ text: 'q' }] },
          modelTurn,
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', id: 'call_a', response: {} } }] },
        ],
      },
      { modelId: 'gemini-test', stream: false, unsealArtefact: sealer.unseal },
    );
    expect(request.messages[1]?.content).toEqual([
      { type: 'reasoning', text: 'think', artefact: { producer: 'anthropic', signature: 'EqQB' } },
      { type: 'text', text: 'Hello' },
      {
        type: 'tool-call',
        callId: 'call_a',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        artefact: { producer: 'gemini', signature: 'Z2Vt' },
      },
    ]);
    expect(request.messages[2]).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', callId: 'call_a', output: '{}' }],
    });
  });

  it('maps the finish reasons Gemini has', () => {
    const finishOf = (reason: 'stop' | 'length' | 'content-filter') =>
      (
        JSON.parse(
          createGeminiAnswerCodec(contextOf()).encodeAnswer(
            foldStreamParts([{ type: 'finish', finish: { reason, rawReason: null } }]),
          ),
        ) as Chunk
      ).candidates[0]?.finishReason;
    expect([finishOf('stop'), finishOf('length'), finishOf('content-filter')]).toEqual([
      'STOP',
      'MAX_TOKENS',
      'SAFETY',
    ]);
  });
});

describe('the Gemini stream encoder', () => {
  it('writes bare data: frames, no [DONE], with the finish and usage on a last chunk that has content', () => {
    const frames = streamFrames(contextOf()).join('');
    expect(frames).not.toContain('[DONE]');
    expect(frames).not.toContain('event:');
    const chunks = frames
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((frame) => JSON.parse(frame.replace(/^data: /, '')) as Chunk);
    expect(chunks.every((chunk) => (chunk.candidates[0]?.content.parts.length ?? 0) > 0)).toBe(true);
    expect(chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? [])).toEqual([
      { text: 'think', thought: true, thoughtSignature: expect.any(String) as string },
      { text: 'Hel' },
      { text: 'lo' },
      { functionCall: { id: 'call_a', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'Z2Vt' },
    ]);
    expect(chunks.slice(0, -1).some((chunk) => chunk.usageMetadata || chunk.candidates[0]?.finishReason)).toBe(false);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    expect(chunks.at(-1)?.usageMetadata?.totalTokenCount).toBe(19);
  });

  it('streams thought text as it comes when thoughts are asked for, the signature on a part of its own', () => {
    const frames = streamFrames(contextOf({ includeThoughts: true }))
      .join('')
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((frame) => JSON.parse(frame.replace(/^data: /, '')) as Chunk);
    expect(frames[0]?.candidates[0]?.content.parts).toEqual([{ text: 'think', thought: true }]);
    expect(frames[1]?.candidates[0]?.content.parts).toEqual([
      { text: '', thought: true, thoughtSignature: expect.any(String) as string },
    ]);
  });

  it('without alt=sse writes one JSON array of the same chunks', () => {
    const body = streamFrames(contextOf({ streamFraming: 'json-array' })).join('');
    const chunks = JSON.parse(body) as Chunk[];
    expect(chunks).toHaveLength(4);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('ends a stream cut by the vendor with Google’s error object (and closes the array)', () => {
    const encoder = createGeminiAnswerCodec(contextOf({ streamFraming: 'json-array' })).createStreamEncoder();
    const frames = [
      ...encoder.start(),
      ...encoder.push({ type: 'text-start', blockIndex: 0 }),
      ...encoder.push({ type: 'text-delta', blockIndex: 0, text: 'part' }),
      ...encoder.fail({ code: 'service_unavailable', message: 'overloaded' }),
    ];
    expect(JSON.parse(frames.join(''))).toEqual([
      expect.objectContaining({
        candidates: [expect.objectContaining({ content: { role: 'model', parts: [{ text: 'part' }] } })],
      }),
      { error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } },
    ]);
  });
});
