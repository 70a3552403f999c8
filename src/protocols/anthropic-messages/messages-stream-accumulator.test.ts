import { describe, expect, it } from 'vitest';
import {
  createMessagesStreamAccumulator,
  readMessagesAnswer,
  readMessagesFrames,
} from './messages-stream-accumulator.js';

describe('createMessagesStreamAccumulator', () => {
  it('rebuilds text, thinking and tool_use blocks (input from its JSON pieces) once message_stop came', () => {
    const accumulator = createMessagesStreamAccumulator();
    const events = [
      { type: 'message_start', message: { id: 'msg_1', content: [] } },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'check.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Looking it up' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'w', input: {} },
      },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"query":' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
    ];
    for (const event of events) accumulator.push(event);
    expect(accumulator.message()).toBeUndefined();
    accumulator.push({ type: 'message_stop' });
    expect(accumulator.message()).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Let me check.', signature: 'sig' },
        { type: 'text', text: 'Looking it up' },
        { type: 'tool_use', id: 'toolu_1', name: 'w', input: { query: 'Paris' } },
      ],
    });
  });

  it('holds nothing of a stream that failed', () => {
    const accumulator = createMessagesStreamAccumulator();
    accumulator.push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'partial' } });
    accumulator.push({ type: 'error', error: { type: 'overloaded_error', message: 'busy' } });
    accumulator.push({ type: 'message_stop' });
    expect(accumulator.message()).toBeUndefined();
  });
});

describe('readMessagesFrames and readMessagesAnswer', () => {
  it('read the JSON of SSE frames and the content of a Message body', () => {
    expect(
      readMessagesFrames(['event: ping\ndata: {"type":"ping"}\n\n', 'event: x\n\n', 'data: not json\n\n']),
    ).toEqual([{ type: 'ping' }]);
    expect(readMessagesAnswer('{"id":"msg_1","content":[{"type":"text","text":"hi"}]}')).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'hi' }],
    });
    expect(readMessagesAnswer('{"type":"error"}')).toBeUndefined();
    expect(readMessagesAnswer('<html>')).toBeUndefined();
  });
});
