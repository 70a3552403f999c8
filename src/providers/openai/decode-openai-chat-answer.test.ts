import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
import type { VendorCall } from '../vendor-adapter.js';
import { decodeOpenAiChatResponse, decodeOpenAiChatStream } from './decode-openai-chat-answer.js';

const call: VendorCall = {
  channel: { baseUrl: 'https://openai.example.test/v1', secret: 'sk', settings: {} },
  upstreamModelId: 'gpt-4o',
  publicModelId: 'gpt-4o',
  maxOutputTokens: undefined,
  stream: true,
  clock: () => 1_700_000_000_000,
};

async function decodeStream(chunks: unknown[]): Promise<CanonicalStreamPart[]> {
  const text = [
    ...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`),
    'data: [DONE]\n\n',
    'data: {"never":"read"}\n\n',
  ].join('');
  const parts: CanonicalStreamPart[] = [];
  for await (const part of decodeOpenAiChatStream(Readable.from([Buffer.from(text)]), call)) parts.push(part);
  return parts;
}

const delta = (fields: object, finishReason: string | null = null) => ({
  id: 'chatcmpl-v',
  model: 'gpt-4o',
  choices: [{ index: 0, delta: fields, finish_reason: finishReason }],
});

describe('the OpenAI chat decoder', () => {
  it('turns chunks into blocks: reasoning_content, text, tool calls by index, the finish, then the usage chunk', async () => {
    const parts = await decodeStream([
      delta({ role: 'assistant', reasoning_content: 'hmm' }),
      delta({ content: 'Hi' }),
      delta({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
      delta({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }),
      delta({}, 'tool_calls'),
      {
        id: 'chatcmpl-v',
        choices: [],
        usage: {
          prompt_tokens: 9,
          completion_tokens: 4,
          total_tokens: 13,
          prompt_tokens_details: { cached_tokens: 3 },
          completion_tokens_details: { reasoning_tokens: 1 },
        },
      },
    ]);
    expect(foldStreamParts(parts)).toEqual({
      blocks: [
        { type: 'reasoning', text: 'hmm', ended: true },
        { type: 'text', text: 'Hi', ended: true },
        { type: 'tool-call', callId: 'call_1', name: 'f', arguments: '{"a":1}', ended: true },
        { type: 'tool-call', callId: 'call_2', name: 'g', arguments: '{}', ended: true },
      ],
      finish: { reason: 'tool-calls', rawReason: 'tool_calls' },
      usage: { inputTokens: 9, cacheReadInputTokens: 3, cacheWriteInputTokens: 0, outputTokens: 4, reasoningTokens: 1 },
      failure: null,
    });
  });

  it('ends with an error part on an error object mid-stream', async () => {
    const parts = await decodeStream([delta({ content: 'Hi' }), { error: { message: 'boom', type: 'server_error' } }]);
    expect(parts.at(-1)).toEqual({ type: 'error', failure: { code: 'server_error', message: 'boom' } });
  });

  it('decodes a chat.completion the same way', () => {
    const body = {
      id: 'chatcmpl-v',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Hello',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          finish_reason: 'length',
        },
      ],
      usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
    };
    const answer = foldStreamParts(decodeOpenAiChatResponse(JSON.stringify(body), call));
    expect(answer.blocks).toEqual([
      { type: 'text', text: 'Hello', ended: true },
      { type: 'tool-call', callId: 'call_1', name: 'f', arguments: '{}', ended: true },
    ]);
    expect(answer.finish).toEqual({ reason: 'length', rawReason: 'length' });
    expect(answer.usage).toEqual({
      inputTokens: 2,
      cacheReadInputTokens: 0,
      cacheWriteInputTokens: 0,
      outputTokens: 1,
      reasoningTokens: 0,
    });
  });
});
