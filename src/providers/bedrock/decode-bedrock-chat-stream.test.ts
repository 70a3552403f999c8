import { Readable } from 'node:stream';
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import type { ChatStreamPart } from '../../core/chat-stream-part.js';
import { decodeBedrockChatStream } from './decode-bedrock-chat-stream.js';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function frame(messageType: 'event' | 'exception', name: string, payload: object): Buffer {
  const headers: MessageHeaders = {
    [messageType === 'event' ? ':event-type' : ':exception-type']: { type: 'string', value: name },
    ':content-type': { type: 'string', value: 'application/json' },
    ':message-type': { type: 'string', value: messageType },
  };
  return Buffer.from(codec.encode({ headers, body: fromUtf8(JSON.stringify(payload)) }));
}

const event = (name: string, payload: object) => frame('event', name, payload);

/** A text block then a tool call with input in two pieces, as ConverseStream sends them (with `p` padding). */
const toolAnswer = Buffer.concat([
  event('messageStart', { role: 'assistant', p: 'abc' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Let me ' }, p: 'ab' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'check.' } }),
  event('contentBlockStop', { contentBlockIndex: 0 }),
  event('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } } }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":' } } }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"Paris"}' } } }),
  event('contentBlockStop', { contentBlockIndex: 1 }),
  event('messageStop', { stopReason: 'tool_use' }),
  event('metadata', { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 19, cacheReadInputTokens: 4, cacheWriteInputTokens: 0 }, metrics: { latencyMs: 9 } }),
]);

const expectedToolParts: ChatStreamPart[] = [
  { type: 'start' },
  { type: 'text-delta', text: 'Let me ' },
  { type: 'text-delta', text: 'check.' },
  { type: 'tool-call-start', toolCallIndex: 0, id: 'tooluse_1', name: 'get_weather' },
  { type: 'tool-input-delta', toolCallIndex: 0, argumentsDelta: '{"city":' },
  { type: 'tool-input-delta', toolCallIndex: 0, argumentsDelta: '"Paris"}' },
  { type: 'finish', finishReason: 'tool_calls', rawReason: 'tool_use' },
  { type: 'usage', usage: { promptTokens: 14, completionTokens: 5, totalTokens: 19, cachedPromptTokens: 4, reasoningTokens: 0 } },
];

function split(bytes: Buffer, chunkLength: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += chunkLength) chunks.push(bytes.subarray(start, start + chunkLength));
  return chunks;
}

async function decode(chunks: Buffer[]): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of decodeBedrockChatStream(Readable.from(chunks))) parts.push(part);
  return parts;
}

describe('decodeBedrockChatStream', () => {
  it.each([1, 7, 13, 4096])('decodes frames split into %i-byte chunks', async (chunkLength) => {
    expect(await decode(split(toolAnswer, chunkLength))).toEqual(expectedToolParts);
  });

  it('maps reasoning deltas and a max_tokens stop', async () => {
    const parts = await decode([
      event('messageStart', { role: 'assistant' }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'hmm' } } }),
      event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Hi' } }),
      event('messageStop', { stopReason: 'max_tokens' }),
    ]);
    expect(parts.slice(1)).toEqual([
      { type: 'reasoning-delta', text: 'hmm' },
      { type: 'text-delta', text: 'Hi' },
      { type: 'finish', finishReason: 'length', rawReason: 'max_tokens' },
    ]);
  });

  it.each([
    ['throttlingException', 'rate_limit_exceeded'],
    ['serviceUnavailableException', 'service_unavailable'],
    ['modelStreamErrorException', 'server_error'],
    ['internalServerException', 'server_error'],
  ])('ends with one error part on a %s event', async (exceptionType, code) => {
    const parts = await decode([
      event('messageStart', { role: 'assistant' }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }),
      frame('exception', exceptionType, { message: 'failed for arn:aws:bedrock:us-east-1:123456789012:foundation-model/x' }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'never relayed' } }),
    ]);
    expect(parts).toHaveLength(3);
    expect(parts[2]).toMatchObject({ type: 'error', code });
    expect(JSON.stringify(parts[2])).not.toContain('123456789012');
  });

  it('reports a stream that ends before messageStop, or mid-frame, as an error part', async () => {
    const cut = await decode([event('messageStart', { role: 'assistant' }), event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } })]);
    expect(cut.at(-1)).toMatchObject({ type: 'error', code: 'server_error' });
    const halfFrame = await decode([event('messageStart', { role: 'assistant' }), event('messageStop', { stopReason: 'end_turn' }).subarray(0, 20)]);
    expect(halfFrame).toEqual([{ type: 'start' }, { type: 'error', code: 'server_error', message: expect.stringContaining('corrupt') }]);
  });

  it('refuses a frame whose CRC does not match', async () => {
    const corrupt = Buffer.from(event('messageStart', { role: 'assistant' }));
    corrupt.writeUInt8((corrupt.readUInt8(corrupt.length - 6) ^ 0xff) & 0xff, corrupt.length - 6);
    expect((await decode([corrupt])).at(-1)).toMatchObject({ type: 'error', code: 'server_error' });
  });

  it('lets a transport failure of the body propagate, so the caller can still fail over', async () => {
    async function* failingBody(): AsyncGenerator<Buffer> {
      yield event('messageStart', { role: 'assistant' });
      throw new Error('socket hang up');
    }
    const parts: ChatStreamPart[] = [];
    await expect(
      (async () => {
        for await (const part of decodeBedrockChatStream(failingBody())) parts.push(part);
      })(),
    ).rejects.toThrow('socket hang up');
    expect(parts).toEqual([{ type: 'start' }]);
  });
});
