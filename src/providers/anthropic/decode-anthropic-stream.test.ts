import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ChatStreamPart } from '../../core/chat-stream-part.js';
import type { VendorCall } from '../chat-adapter.js';
import { createOpenAiChunkEncoder } from '../translated-stream/encode-openai-chunks.js';
import { decodeAnthropicStream } from './decode-anthropic-stream.js';

const call: VendorCall = {
  channel: { baseUrl: 'https://anthropic.example.test/v1', secret: 'sk-ant-secret', settings: {} },
  upstreamModelId: 'claude-sonnet-4-5',
  publicModelId: 'claude-sonnet',
  maxOutputTokens: undefined,
  stream: true,
  clock: () => 1_700_000_000_000,
};

function sse(events: Array<[string, unknown]>): string {
  return events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`).join('');
}

/** Feeds the SSE text in 7-byte pieces, so events and characters are split across reads. */
async function decode(text: string): Promise<ChatStreamPart[]> {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += 7) pieces.push(bytes.subarray(start, start + 7));
  const parts: ChatStreamPart[] = [];
  for await (const part of decodeAnthropicStream(Readable.from(pieces), call)) parts.push(part);
  return parts;
}

function toOpenAiChunks(parts: ChatStreamPart[]): unknown[] {
  const encoder = createOpenAiChunkEncoder({ id: 'chatcmpl-test', model: 'claude-sonnet', created: 1_700_000_000, clientWantsUsage: true });
  return [...parts.flatMap((part) => encoder.encode(part)), ...encoder.end()].map((chunk) => JSON.parse(chunk) as unknown);
}

const messageStart: [string, unknown] = [
  'message_start',
  { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 12, cache_creation_input_tokens: 3, cache_read_input_tokens: 40, output_tokens: 1 } } },
];

describe('decodeAnthropicStream', () => {
  it('turns text, thinking and a streamed tool call into OpenAI chunks, with cumulative usage merged over message_start', async () => {
    const parts = await decode(
      sse([
        messageStart,
        ['ping', {}],
        ['content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }],
        ['content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Let me see.' } }],
        ['content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'c2ln' } }],
        ['content_block_stop', { index: 0 }],
        ['content_block_start', { index: 1, content_block: { type: 'text', text: '' } }],
        ['content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Checking the ' } }],
        ['content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'weather — ☀' } }],
        ['content_block_stop', { index: 1 }],
        ['content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_9', name: 'get_weather', input: {} } }],
        ['content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":' } }],
        ['content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }],
        ['content_block_stop', { index: 2 }],
        ['message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 25, input_tokens: null, output_tokens_details: { thinking_tokens: 5 } } }],
        ['message_stop', {}],
      ]),
    );
    expect(parts).toMatchInlineSnapshot(`
      [
        {
          "model": "claude-sonnet-4-5",
          "responseId": "msg_1",
          "type": "start",
        },
        {
          "text": "Let me see.",
          "type": "reasoning-delta",
        },
        {
          "text": "Checking the ",
          "type": "text-delta",
        },
        {
          "text": "weather — ☀",
          "type": "text-delta",
        },
        {
          "id": "toolu_9",
          "name": "get_weather",
          "toolCallIndex": 0,
          "type": "tool-call-start",
        },
        {
          "argumentsDelta": "{"city":",
          "toolCallIndex": 0,
          "type": "tool-input-delta",
        },
        {
          "argumentsDelta": ""Paris"}",
          "toolCallIndex": 0,
          "type": "tool-input-delta",
        },
        {
          "type": "usage",
          "usage": {
            "cacheWritePromptTokens": 3,
            "cachedPromptTokens": 40,
            "completionTokens": 25,
            "promptTokens": 55,
            "reasoningTokens": 5,
            "totalTokens": 80,
          },
        },
        {
          "finishReason": "tool_calls",
          "rawReason": "tool_use",
          "type": "finish",
        },
      ]
    `);
    expect(toOpenAiChunks(parts)).toMatchInlineSnapshot(`
      [
        {
          "choices": [
            {
              "delta": {
                "content": "",
                "role": "assistant",
              },
              "finish_reason": null,
              "index": 0,
              "logprobs": null,
            },
          ],
          "created": 1700000000,
          "id": "msg_1",
          "model": "claude-sonnet",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [
            {
              "delta": {
                "reasoning_content": "Let me see.",
              },
              "finish_reason": null,
              "index": 0,
              "logprobs": null,
            },
          ],
          "created": 1700000000,
          "id": "msg_1",
          "model": "claude-sonnet",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [
            {
              "delta": {
                "content": "Checking the ",
              },
              "finish_reason": null,
              "index": 0,
              "logprobs": null,
            },
          ],
          "created": 1700000000,
          "id": "msg_1",
          "model": "claude-sonnet",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [
            {
              "delta": {
                "content": "weather — ☀",
              },
              "finish_reason": null,
              "index": 0,
              "logprobs": null,
            },
          ],
          "created": 1700000000,
          "id": "msg_1",
          "model": "claude-sonnet",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [
            {
              "delta": {
                "tool_calls": [
                  {
                    "function": {
                      "arguments": "",
                      "name": "get_weather",
                    },
                    "id": "toolu_9",
                    "index": 0,
                    "type": "function",
                  },
                ],
              },
              "finish_reason": null,
              "index": 0,
              "logprobs": null,
            },
          ],
          "created": 1700000000,
          "id": "msg_1",
          "model": "claude-sonnet",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [
            {
              "delta": {
                "tool_calls": [
                  {
                    "function": {
                      "arguments": "{"city":",
                    },
                    "index": 0,
                  },
                ],
              },
              "finish_reason": null,
              "index": 0,
              "logprobs": null,
            },
          ],
          "created": 1700000000,
          "id": "msg_1",
          "model": "claude-sonnet",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [
            {
              "delta": {
                "tool_calls": [
                  {
                    "function": {
                      "arguments": ""Paris"}",
                    },
                    "index": 0,
                  },
                ],
              },
              "finish_reason": null,
              "index": 0,
              "logprobs": null,
            },
          ],
          "created": 1700000000,
          "id": "msg_1",
          "model": "claude-sonnet",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [
            {
              "delta": {},
              "finish_reason": "tool_calls",
              "index": 0,
              "logprobs": null,
            },
          ],
          "created": 1700000000,
          "id": "msg_1",
          "model": "claude-sonnet",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [],
          "created": 1700000000,
          "id": "msg_1",
          "model": "claude-sonnet",
          "object": "chat.completion.chunk",
          "usage": {
            "completion_tokens": 25,
            "completion_tokens_details": {
              "reasoning_tokens": 5,
            },
            "prompt_tokens": 55,
            "prompt_tokens_details": {
              "cached_tokens": 40,
            },
            "total_tokens": 80,
          },
        },
      ]
    `);
  });

  it('ends with an error part on a mid-stream error event', async () => {
    const parts = await decode(
      sse([
        messageStart,
        ['content_block_start', { index: 0, content_block: { type: 'text', text: '' } }],
        ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hel' } }],
        ['error', { error: { type: 'overloaded_error', message: 'Overloaded' } }],
        ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'never read' } }],
      ]),
    );
    expect(parts.slice(1)).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'error', message: 'Overloaded', code: 'service_unavailable' },
    ]);
  });

  it('maps max_tokens to length and stops at message_stop', async () => {
    const parts = await decode(
      sse([
        messageStart,
        ['content_block_start', { index: 0, content_block: { type: 'text', text: '' } }],
        ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'cut' } }],
        ['message_delta', { delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 1 } }],
        ['message_stop', {}],
      ]) + 'event: message_start\ndata: {"type":"message_start"}\n\n',
    );
    expect(parts.at(-1)).toEqual({ type: 'finish', finishReason: 'length', rawReason: 'max_tokens' });
  });
});
