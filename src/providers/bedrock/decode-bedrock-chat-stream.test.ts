import { Readable } from 'node:stream';
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
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
  event('contentBlockStart', {
    contentBlockIndex: 1,
    start: { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } },
  }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":' } } }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"Paris"}' } } }),
  event('contentBlockStop', { contentBlockIndex: 1 }),
  event('messageStop', { stopReason: 'tool_use' }),
  event('metadata', {
    usage: { inputTokens: 10, outputTokens: 5, totalTokens: 19, cacheReadInputTokens: 4, cacheWriteInputTokens: 0 },
    metrics: { latencyMs: 9 },
  }),
]);

const expectedToolParts: CanonicalStreamPart[] = [
  { type: 'response-start' },
  { type: 'text-start', blockIndex: 0 },
  { type: 'text-delta', blockIndex: 0, text: 'Let me ' },
  { type: 'text-delta', blockIndex: 0, text: 'check.' },
  { type: 'text-end', blockIndex: 0 },
  { type: 'tool-call-start', blockIndex: 1, callId: 'tooluse_1', name: 'get_weather' },
  { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '"Paris"}' },
  { type: 'tool-call-end', blockIndex: 1 },
  { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
  {
    type: 'usage',
    usage: { inputTokens: 14, cacheReadInputTokens: 4, cacheWriteInputTokens: 0, outputTokens: 5, reasoningTokens: 0 },
  },
];

function split(bytes: Buffer, chunkLength: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += chunkLength)
    chunks.push(bytes.subarray(start, start + chunkLength));
  return chunks;
}

async function decode(chunks: Buffer[]): Promise<CanonicalStreamPart[]> {
  const parts: CanonicalStreamPart[] = [];
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
      { type: 'reasoning-start', blockIndex: 0 },
      { type: 'reasoning-delta', blockIndex: 0, text: 'hmm' },
      { type: 'reasoning-end', blockIndex: 0 },
      { type: 'text-start', blockIndex: 1 },
      { type: 'text-delta', blockIndex: 1, text: 'Hi' },
      { type: 'text-end', blockIndex: 1 },
      { type: 'finish', finish: { reason: 'length', rawReason: 'max_tokens' } },
    ]);
  });

  it('keeps a reasoning signature and redacted reasoning as Bedrock artefacts on their reasoning blocks', async () => {
    const parts = await decode([
      event('messageStart', { role: 'assistant' }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'hmm' } } }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'c2ln' } } }),
      event('contentBlockStop', { contentBlockIndex: 0 }),
      event('contentBlockDelta', {
        contentBlockIndex: 1,
        delta: { reasoningContent: { redactedContent: 'cmVkYWN0ZWQ=' } },
      }),
      event('contentBlockStop', { contentBlockIndex: 1 }),
      event('contentBlockDelta', { contentBlockIndex: 2, delta: { text: 'Hi' } }),
      event('contentBlockStop', { contentBlockIndex: 2 }),
      event('messageStop', { stopReason: 'end_turn' }),
    ]);
    expect(foldStreamParts(parts).blocks).toEqual([
      { type: 'reasoning', text: 'hmm', artefact: { producer: 'bedrock', signature: 'c2ln' }, ended: true },
      { type: 'reasoning', text: '', artefact: { producer: 'bedrock', redactedData: 'cmVkYWN0ZWQ=' }, ended: true },
      { type: 'text', text: 'Hi', ended: true },
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
      frame('exception', exceptionType, {
        message: 'failed for arn:aws:bedrock:us-east-1:123456789012:foundation-model/x',
      }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'never relayed' } }),
    ]);
    expect(parts).toHaveLength(4);
    expect(parts[3]).toMatchObject({ type: 'error', failure: { code } });
    expect(JSON.stringify(parts[3])).not.toContain('123456789012');
  });

  it('reports a stream that ends before messageStop, or mid-frame, as an error part', async () => {
    const cut = await decode([
      event('messageStart', { role: 'assistant' }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }),
    ]);
    expect(cut.at(-1)).toMatchObject({ type: 'error', failure: { code: 'server_error' } });
    const halfFrame = await decode([
      event('messageStart', { role: 'assistant' }),
      event('messageStop', { stopReason: 'end_turn' }).subarray(0, 20),
    ]);
    expect(halfFrame).toEqual([
      { type: 'response-start' },
      { type: 'error', failure: { code: 'server_error', message: expect.stringContaining('corrupt') } },
    ]);
  });

  it('refuses a frame whose CRC does not match', async () => {
    const corrupt = Buffer.from(event('messageStart', { role: 'assistant' }));
    corrupt.writeUInt8((corrupt.readUInt8(corrupt.length - 6) ^ 0xff) & 0xff, corrupt.length - 6);
    expect((await decode([corrupt])).at(-1)).toMatchObject({ type: 'error', failure: { code: 'server_error' } });
  });

  it('lets a transport failure of the body propagate, so the caller can still fail over', async () => {
    async function* failingBody(): AsyncGenerator<Buffer> {
      yield event('messageStart', { role: 'assistant' });
      throw new Error('socket hang up');
    }
    const parts: CanonicalStreamPart[] = [];
    await expect(
      (async () => {
        for await (const part of decodeBedrockChatStream(failingBody())) parts.push(part);
      })(),
    ).rejects.toThrow('socket hang up');
    expect(parts).toEqual([{ type: 'response-start' }]);
  });
});
