import { describe, expect, it } from 'vitest';
import { createAnswerBuilder, foldStreamParts } from './fold-stream-parts.js';

const usage = {
  inputTokens: 10,
  cacheReadInputTokens: 4,
  cacheWriteInputTokens: 2,
  outputTokens: 7,
  reasoningTokens: 3,
};

describe('foldStreamParts', () => {
  it('joins deltas per block, keeps blocks in start order and keeps artefacts, finish and the last usage', () => {
    const answer = foldStreamParts([
      { type: 'response-start', vendorResponseId: 'msg_vendor', vendorModel: 'claude' },
      { type: 'reasoning-start', blockIndex: 0 },
      { type: 'reasoning-delta', blockIndex: 0, text: 'Think' },
      { type: 'reasoning-delta', blockIndex: 0, text: 'ing' },
      { type: 'reasoning-end', blockIndex: 0, artefact: { producer: 'anthropic', signature: 'sig' } },
      { type: 'text-start', blockIndex: 1 },
      { type: 'tool-call-start', blockIndex: 2, callId: 'call_1', name: 'get_weather' },
      { type: 'text-delta', blockIndex: 1, text: 'Hel' },
      { type: 'tool-call-delta', blockIndex: 2, argumentsDelta: '{"city":' },
      { type: 'text-delta', blockIndex: 1, text: 'lo' },
      { type: 'tool-call-delta', blockIndex: 2, argumentsDelta: '"Paris"}' },
      { type: 'text-end', blockIndex: 1 },
      { type: 'tool-call-end', blockIndex: 2, artefact: { producer: 'gemini', signature: 'thought' } },
      { type: 'usage', usage: { ...usage, outputTokens: 1 } },
      { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
      { type: 'usage', usage },
    ]);
    expect(answer).toEqual({
      blocks: [
        { type: 'reasoning', text: 'Thinking', artefact: { producer: 'anthropic', signature: 'sig' }, ended: true },
        { type: 'text', text: 'Hello', ended: true },
        {
          type: 'tool-call',
          callId: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
          artefact: { producer: 'gemini', signature: 'thought' },
          ended: true,
        },
      ],
      finish: { reason: 'tool-calls', rawReason: 'tool_use' },
      usage,
      failure: null,
    });
  });

  it('marks blocks the stream never ended and leaves finish null when the vendor never said', () => {
    const answer = foldStreamParts([
      { type: 'text-start', blockIndex: 0 },
      { type: 'text-delta', blockIndex: 0, text: 'cut' },
    ]);
    expect(answer).toEqual({
      blocks: [{ type: 'text', text: 'cut', ended: false }],
      finish: null,
      usage: null,
      failure: null,
    });
  });

  it('keeps the failure and ignores what follows it', () => {
    const answer = foldStreamParts([
      { type: 'text-start', blockIndex: 0 },
      { type: 'error', failure: { code: 'server_error', message: 'boom' } },
      { type: 'text-delta', blockIndex: 0, text: 'late' },
      { type: 'finish', finish: { reason: 'stop', rawReason: 'stop' } },
    ]);
    expect(answer.failure).toEqual({ code: 'server_error', message: 'boom' });
    expect(answer.blocks).toEqual([{ type: 'text', text: '', ended: false }]);
    expect(answer.finish).toBeNull();
  });

  it('refuses deltas for unknown, ended or other-type blocks and out-of-order starts', () => {
    expect(() => foldStreamParts([{ type: 'text-delta', blockIndex: 0, text: 'x' }])).toThrow(/No text block 0/);
    expect(() => foldStreamParts([{ type: 'text-start', blockIndex: 1 }])).toThrow(/out of order/);
    expect(() =>
      foldStreamParts([
        { type: 'text-start', blockIndex: 0 },
        { type: 'text-end', blockIndex: 0 },
        { type: 'text-delta', blockIndex: 0, text: 'x' },
      ]),
    ).toThrow(/already ended/);
    expect(() =>
      foldStreamParts([
        { type: 'reasoning-start', blockIndex: 0 },
        { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{}' },
      ]),
    ).toThrow(/No tool-call block 0/);
  });

  it('returns snapshots that later parts do not change', () => {
    const builder = createAnswerBuilder();
    builder.add({ type: 'text-start', blockIndex: 0 });
    const before = builder.answer();
    builder.add({ type: 'text-delta', blockIndex: 0, text: 'more' });
    expect(before.blocks[0]).toEqual({ type: 'text', text: '', ended: false });
  });
});

describe('createAnswerBuilder().block', () => {
  it('returns a snapshot of one block, or undefined before it starts', () => {
    const builder = createAnswerBuilder();
    expect(builder.block(0)).toBeUndefined();
    builder.add({ type: 'tool-call-start', blockIndex: 0, callId: 'call_1', name: 'f' });
    builder.add({ type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{}' });
    expect(builder.block(0)).toEqual({ type: 'tool-call', callId: 'call_1', name: 'f', arguments: '{}', ended: false });
  });
});
