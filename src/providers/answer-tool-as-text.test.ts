import { describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from '../core/canonical/canonical-stream-part.js';
import { answerToolAsTextParts, answerToolAsTextStream } from './answer-tool-as-text.js';

const answer: CanonicalStreamPart[] = [
  { type: 'response-start' },
  { type: 'reasoning-start', blockIndex: 0 },
  { type: 'reasoning-end', blockIndex: 0 },
  { type: 'tool-call-start', blockIndex: 1, callId: 'toolu_1', name: 'json_answer' },
  { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '{"a":' },
  { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '1}' },
  { type: 'tool-call-end', blockIndex: 1 },
  { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
];

const asText: CanonicalStreamPart[] = [
  { type: 'response-start' },
  { type: 'reasoning-start', blockIndex: 0 },
  { type: 'reasoning-end', blockIndex: 0 },
  { type: 'text-start', blockIndex: 1 },
  { type: 'text-delta', blockIndex: 1, text: '{"a":' },
  { type: 'text-delta', blockIndex: 1, text: '1}' },
  { type: 'text-end', blockIndex: 1 },
  { type: 'finish', finish: { reason: 'stop', rawReason: 'tool_use' } },
];

describe('answerToolAsText', () => {
  it("turns the gateway's answer tool call into the answer's text and its finish into stop", () => {
    expect(answerToolAsTextParts(answer, 'json_answer')).toEqual(asText);
  });

  it('does the same to a stream, part by part', async () => {
    async function* stream(): AsyncGenerator<CanonicalStreamPart> {
      yield* answer;
    }
    const parts: CanonicalStreamPart[] = [];
    for await (const part of answerToolAsTextStream(stream(), 'json_answer')) parts.push(part);
    expect(parts).toEqual(asText);
  });

  it('leaves calls of other tools, and their finish, as they are', () => {
    const other = answer.map((part) => (part.type === 'tool-call-start' ? { ...part, name: 'get_time' } : part));
    expect(answerToolAsTextParts(other, 'json_answer')).toEqual(other);
  });
});
