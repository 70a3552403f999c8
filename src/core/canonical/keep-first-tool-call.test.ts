import { describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from './canonical-stream-part.js';
import { keepFirstToolCall, keepFirstToolCallOfStream } from './keep-first-tool-call.js';

/** Text, two interleaved tool calls, then text again: what a vendor without a parallel-call switch may answer. */
const twoCalls: CanonicalStreamPart[] = [
  { type: 'response-start', vendorResponseId: 'resp_1' },
  { type: 'text-start', blockIndex: 0 },
  { type: 'text-delta', blockIndex: 0, text: 'Checking.' },
  { type: 'text-end', blockIndex: 0 },
  { type: 'tool-call-start', blockIndex: 1, callId: 'call_a', name: 'get_weather' },
  { type: 'tool-call-start', blockIndex: 2, callId: 'call_b', name: 'get_time' },
  { type: 'tool-call-delta', blockIndex: 2, argumentsDelta: '{"city":"Rome"}' },
  { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '{"city":"Paris"}' },
  { type: 'tool-call-end', blockIndex: 2 },
  { type: 'tool-call-end', blockIndex: 1, artefact: { producer: 'gemini', signature: 'sig' } },
  { type: 'text-start', blockIndex: 3 },
  { type: 'text-delta', blockIndex: 3, text: 'Done.' },
  { type: 'text-end', blockIndex: 3 },
  {
    type: 'usage',
    usage: { inputTokens: 5, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 9, reasoningTokens: 0 },
  },
  { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'STOP' } },
];

const firstCallOnly: CanonicalStreamPart[] = [
  { type: 'response-start', vendorResponseId: 'resp_1' },
  { type: 'text-start', blockIndex: 0 },
  { type: 'text-delta', blockIndex: 0, text: 'Checking.' },
  { type: 'text-end', blockIndex: 0 },
  { type: 'tool-call-start', blockIndex: 1, callId: 'call_a', name: 'get_weather' },
  { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '{"city":"Paris"}' },
  { type: 'tool-call-end', blockIndex: 1, artefact: { producer: 'gemini', signature: 'sig' } },
  { type: 'text-start', blockIndex: 2 },
  { type: 'text-delta', blockIndex: 2, text: 'Done.' },
  { type: 'text-end', blockIndex: 2 },
  {
    type: 'usage',
    usage: { inputTokens: 5, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 9, reasoningTokens: 0 },
  },
  { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'STOP' } },
];

async function* streamOf(parts: readonly CanonicalStreamPart[]): AsyncGenerator<CanonicalStreamPart> {
  for (const part of parts) {
    await Promise.resolve();
    yield part;
  }
}

describe('keepFirstToolCall', () => {
  it('drops every later tool call, keeps the rest with its blocks numbered again and the finish of a tool call', () => {
    expect(keepFirstToolCall(twoCalls)).toEqual(firstCallOnly);
  });

  it('does the same to a stream, part by part', async () => {
    const kept: CanonicalStreamPart[] = [];
    for await (const part of keepFirstToolCallOfStream(streamOf(twoCalls))) kept.push(part);
    expect(kept).toEqual(firstCallOnly);
  });

  it('leaves an answer with one call or none as it is', () => {
    expect(keepFirstToolCall(firstCallOnly)).toEqual(firstCallOnly);
    const textOnly: CanonicalStreamPart[] = [
      { type: 'text-start', blockIndex: 0 },
      { type: 'text-delta', blockIndex: 0, text: 'Hi' },
      { type: 'text-end', blockIndex: 0 },
      { type: 'finish', finish: { reason: 'stop', rawReason: 'STOP' } },
    ];
    expect(keepFirstToolCall(textOnly)).toEqual(textOnly);
  });
});
