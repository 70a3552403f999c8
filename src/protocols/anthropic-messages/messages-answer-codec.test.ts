import { describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
import { createReasoningSealer, type ArtefactCipher } from '../shared/reasoning-sealer.js';
import { createMessagesAnswerCodec } from './messages-answer-codec.js';
import { toMessagesToolUseId } from './messages-tool-use-id.js';

const testCipher: ArtefactCipher = {
  encrypt: (plainText) => `sealed:${Buffer.from(plainText).toString('base64')}`,
  decrypt: (sealed) => {
    if (!sealed.startsWith('sealed:')) throw new Error('not sealed here');
    return Buffer.from(sealed.slice(7), 'base64').toString('utf8');
  },
};
const sealer = createReasoningSealer(testCipher);
const codec = createMessagesAnswerCodec({ messageId: 'msg_test', model: 'claude-public', sealArtefact: sealer.seal });

const signature = { producer: 'anthropic', signature: 'vendor-signature' };
const usage = {
  inputTokens: 100,
  cacheReadInputTokens: 30,
  cacheWriteInputTokens: 20,
  outputTokens: 12,
  reasoningTokens: 5,
};

const everyBlock: CanonicalStreamPart[] = [
  { type: 'response-start', vendorResponseId: 'msg_vendor' },
  { type: 'usage', usage: { ...usage, outputTokens: 1 } },
  { type: 'reasoning-start', blockIndex: 0 },
  { type: 'reasoning-delta', blockIndex: 0, text: 'Think' },
  { type: 'reasoning-delta', blockIndex: 0, text: 'ing' },
  { type: 'reasoning-end', blockIndex: 0, artefact: signature },
  { type: 'text-start', blockIndex: 1 },
  { type: 'text-delta', blockIndex: 1, text: 'Hello' },
  { type: 'text-end', blockIndex: 1 },
  { type: 'tool-call-start', blockIndex: 2, callId: 'functions.Read:0', name: 'read' },
  { type: 'tool-call-delta', blockIndex: 2, argumentsDelta: '{"path":' },
  { type: 'tool-call-delta', blockIndex: 2, argumentsDelta: '"a.txt"}' },
  { type: 'tool-call-end', blockIndex: 2 },
  { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_calls' } },
  { type: 'usage', usage },
];

/** The events of SSE frames, as `[event, data]` pairs. */
function eventsOf(frames: string[]): Array<[string, Record<string, unknown>]> {
  return frames.map((frame) => {
    const match = /^event: (\S+)\ndata: (.*)\n\n$/s.exec(frame);
    if (!match) throw new Error(`Not one SSE frame: ${frame}`);
    return [match[1]!, JSON.parse(match[2]!) as Record<string, unknown>];
  });
}

function streamFrames(parts: CanonicalStreamPart[]): string[] {
  const encoder = codec.createStreamEncoder();
  return [...encoder.start(), ...parts.flatMap((part) => encoder.push(part)), ...encoder.end()];
}

describe('the Messages codec, non-streamed', () => {
  it('encodes every block kind, a sanitized tool id, the stop reason and usage with cache fields', () => {
    expect(JSON.parse(codec.encodeAnswer(foldStreamParts(everyBlock)))).toEqual({
      id: 'msg_test',
      type: 'message',
      role: 'assistant',
      model: 'claude-public',
      content: [
        { type: 'thinking', thinking: 'Thinking', signature: sealer.seal({ artefact: signature }) },
        { type: 'text', text: 'Hello' },
        { type: 'tool_use', id: toMessagesToolUseId('functions.Read:0'), name: 'read', input: { path: 'a.txt' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 50, cache_creation_input_tokens: 20, cache_read_input_tokens: 30, output_tokens: 12 },
    });
  });

  it('round-trips the sealed signature: it unseals to the vendor artefact', () => {
    const message = JSON.parse(codec.encodeAnswer(foldStreamParts(everyBlock))) as {
      content: Array<{ signature?: string }>;
    };
    expect(sealer.unseal(message.content[0]!.signature!)).toEqual({ artefact: signature });
  });

  it('writes redacted reasoning as redacted_thinking with sealed data, and drops empty reasoning without artefact', () => {
    const redacted = { producer: 'anthropic', redactedData: 'opaque' };
    const answer = foldStreamParts([
      { type: 'reasoning-start', blockIndex: 0 },
      { type: 'reasoning-end', blockIndex: 0, artefact: redacted },
      { type: 'reasoning-start', blockIndex: 1 },
      { type: 'reasoning-end', blockIndex: 1 },
      { type: 'reasoning-start', blockIndex: 2 },
      { type: 'reasoning-delta', blockIndex: 2, text: 'summary from a vendor without signatures' },
      { type: 'reasoning-end', blockIndex: 2 },
    ]);
    expect(JSON.parse(codec.encodeAnswer(answer)).content).toEqual([
      { type: 'redacted_thinking', data: sealer.seal({ artefact: redacted }) },
      { type: 'thinking', thinking: 'summary from a vendor without signatures', signature: '' },
    ]);
  });

  it.each([
    [{ reason: 'stop', rawReason: 'stop' }, 'end_turn', null],
    [{ reason: 'stop', rawReason: 'stop_sequence', stopSequence: 'END' }, 'stop_sequence', 'END'],
    [{ reason: 'length', rawReason: 'length' }, 'max_tokens', null],
    [{ reason: 'content-filter', rawReason: 'content_filter' }, 'refusal', null],
  ] as const)('maps finish %j to stop_reason %s', (finish, stopReason, stopSequence) => {
    const message = JSON.parse(codec.encodeAnswer(foldStreamParts([{ type: 'finish', finish }])));
    expect(message).toMatchObject({ stop_reason: stopReason, stop_sequence: stopSequence });
  });

  it('gives {} as the input of a tool call whose arguments are not a JSON object', () => {
    const answer = foldStreamParts([
      { type: 'tool-call-start', blockIndex: 0, callId: 'call_1', name: 'f' },
      { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"cut' },
    ]);
    expect(JSON.parse(codec.encodeAnswer(answer)).content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'f', input: {} },
    ]);
  });
});

describe('the Messages codec, streamed', () => {
  it('writes message_start with the input known so far, a ping, dense blocks, cumulative usage and message_stop', () => {
    const events = eventsOf(streamFrames(everyBlock));
    expect(events.map(([event]) => event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const [event, data] of events) expect(data.type).toBe(event);
    expect(events[0]![1]).toEqual({
      type: 'message_start',
      message: {
        id: 'msg_test',
        type: 'message',
        role: 'assistant',
        model: 'claude-public',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 50, cache_creation_input_tokens: 20, cache_read_input_tokens: 30, output_tokens: 1 },
      },
    });
    expect(events[2]![1]).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    expect(events[3]![1]).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'thinking_delta', thinking: 'Think' },
    });
    expect(events[5]![1]).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'signature_delta', signature: sealer.seal({ artefact: signature }) },
    });
    expect(events[8]![1]).toEqual({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'text_delta', text: 'Hello' },
    });
    expect(events[10]![1]).toEqual({
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: toMessagesToolUseId('functions.Read:0'), name: 'read', input: {} },
    });
    // A sealer is given, so the call is held until its second input piece (an artefact may come with a whole call).
    expect(events[11]![1]).toEqual({
      type: 'content_block_delta',
      index: 2,
      delta: { type: 'input_json_delta', partial_json: '{"path":"a.txt"}' },
    });
    expect(events[13]![1]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 50, cache_creation_input_tokens: 20, cache_read_input_tokens: 30, output_tokens: 12 },
    });
  });

  it('starts a reasoning block without text at its end, as redacted_thinking or thinking with only a signature', () => {
    const redacted = { producer: 'anthropic', redactedData: 'opaque' };
    const events = eventsOf(
      streamFrames([
        { type: 'reasoning-start', blockIndex: 0 },
        { type: 'text-start', blockIndex: 1 },
        { type: 'reasoning-end', blockIndex: 0, artefact: redacted },
        { type: 'reasoning-start', blockIndex: 2 },
        { type: 'reasoning-end', blockIndex: 2, artefact: signature },
        { type: 'reasoning-start', blockIndex: 3 },
        { type: 'reasoning-end', blockIndex: 3 },
        { type: 'text-end', blockIndex: 1 },
      ]),
    );
    const blockEvents = events.filter(([event]) => event.startsWith('content_block')).map(([, data]) => data);
    expect(blockEvents).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'redacted_thinking', data: sealer.seal({ artefact: redacted }) },
      },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'thinking', thinking: '', signature: '' } },
      {
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'signature_delta', signature: sealer.seal({ artefact: signature }) },
      },
      { type: 'content_block_stop', index: 2 },
      { type: 'content_block_stop', index: 0 },
    ]);
  });

  it('closes blocks the vendor left open and still ends with message_delta and message_stop', () => {
    const events = eventsOf(
      streamFrames([
        { type: 'text-start', blockIndex: 0 },
        { type: 'text-delta', blockIndex: 0, text: 'cut' },
      ]),
    );
    expect(events.map(([event]) => event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[5]![1]).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 0 } });
  });

  it.each([
    ['server_error', 'api_error'],
    ['service_unavailable', 'overloaded_error'],
    ['rate_limit_exceeded', 'rate_limit_error'],
  ] as const)('fails with an error event of Anthropic shape (%s -> %s) and nothing after it', (code, type) => {
    const encoder = codec.createStreamEncoder();
    encoder.push({ type: 'text-start', blockIndex: 0 });
    expect(eventsOf(encoder.fail({ code, message: 'boom' }))).toEqual([
      ['error', { type: 'error', error: { type, message: 'boom' } }],
    ]);
    expect(encoder.end()).toEqual([]);
  });
});

describe('toMessagesToolUseId', () => {
  it('keeps safe ids and makes unsafe ones safe without collisions', () => {
    expect(toMessagesToolUseId('toolu_01A-b')).toBe('toolu_01A-b');
    const first = toMessagesToolUseId('functions.Read:0');
    expect(first).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(toMessagesToolUseId('functions.Read_0')).not.toBe(first);
    expect(toMessagesToolUseId('functions.Read:0')).toBe(first);
  });
});

describe('the Messages codec with tool call artefacts', () => {
  const geminiArtefact = { producer: 'gemini', signature: 'c2lnLTE=' };
  const wholeCalls: CanonicalStreamPart[] = [
    { type: 'tool-call-start', blockIndex: 0, callId: 'functions.Read:0', name: 'read' },
    { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"path":"a.txt"}' },
    { type: 'tool-call-end', blockIndex: 0, artefact: geminiArtefact },
    { type: 'tool-call-start', blockIndex: 1, callId: 'call_2', name: 'list' },
    { type: 'tool-call-end', blockIndex: 1 },
    { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'STOP' } },
  ];
  const shownId = toMessagesToolUseId('functions.Read:0');

  it('puts a thinking block sealing the artefact with the tool_use id right before the tool_use', () => {
    const message = JSON.parse(codec.encodeAnswer(foldStreamParts(wholeCalls))) as {
      content: Array<{ type: string; thinking?: string; signature?: string }>;
    };
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'tool_use', 'tool_use']);
    expect(message.content[0]!.thinking).toBe('');
    expect(sealer.unseal(message.content[0]!.signature!)).toStrictEqual({ artefact: geminiArtefact, callId: shownId });
  });

  it('streams the same: the thinking block, then the call written whole at its end, with dense indices', () => {
    const events = eventsOf(streamFrames(wholeCalls)).filter(([event]) => event.startsWith('content_block'));
    expect(events.map(([event, data]) => `${event}@${String(data.index)}`)).toEqual([
      'content_block_start@0',
      'content_block_delta@0',
      'content_block_stop@0',
      'content_block_start@1',
      'content_block_delta@1',
      'content_block_stop@1',
      'content_block_start@2',
      'content_block_stop@2',
    ]);
    const signatureDelta = events[1]![1].delta as { type: string; signature: string };
    expect(signatureDelta.type).toBe('signature_delta');
    expect(sealer.unseal(signatureDelta.signature)).toStrictEqual({ artefact: geminiArtefact, callId: shownId });
    expect(events[3]![1].content_block).toEqual({ type: 'tool_use', id: shownId, name: 'read', input: {} });
    expect(events[4]![1].delta).toEqual({ type: 'input_json_delta', partial_json: '{"path":"a.txt"}' });
  });

  it('shows no artefact without a sealer', () => {
    const unsealed = createMessagesAnswerCodec({ messageId: 'msg_test', model: 'claude-public' });
    const message = JSON.parse(unsealed.encodeAnswer(foldStreamParts(wholeCalls))) as {
      content: Array<{ type: string }>;
    };
    expect(message.content.map((block) => block.type)).toEqual(['tool_use', 'tool_use']);
  });
});
