import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { encodeChatChunks } from '../../../test/helpers/encode-chat-chunks.js';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
import type { VendorCall } from '../vendor-adapter.js';
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
  return events
    .map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`)
    .join('');
}

/** Feeds the SSE text in 7-byte pieces, so events and characters are split across reads. */
async function decode(text: string): Promise<CanonicalStreamPart[]> {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += 7) pieces.push(bytes.subarray(start, start + 7));
  const parts: CanonicalStreamPart[] = [];
  for await (const part of decodeAnthropicStream(Readable.from(pieces), call)) parts.push(part);
  return parts;
}

function toOpenAiChunks(parts: CanonicalStreamPart[]): unknown[] {
  return encodeChatChunks(parts, { model: 'claude-sonnet' });
}

const messageStart: [string, unknown] = [
  'message_start',
  {
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 12, cache_creation_input_tokens: 3, cache_read_input_tokens: 40, output_tokens: 1 },
    },
  },
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
        [
          'content_block_start',
          { index: 2, content_block: { type: 'tool_use', id: 'toolu_9', name: 'get_weather', input: {} } },
        ],
        ['content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":' } }],
        ['content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }],
        ['content_block_stop', { index: 2 }],
        [
          'message_delta',
          {
            delta: { stop_reason: 'tool_use', stop_sequence: null },
            usage: { output_tokens: 25, input_tokens: null, output_tokens_details: { thinking_tokens: 5 } },
          },
        ],
        ['message_stop', {}],
      ]),
    );
    expect(parts).toMatchInlineSnapshot(`
      [
        {
          "type": "response-start",
          "vendorModel": "claude-sonnet-4-5",
          "vendorResponseId": "msg_1",
        },
        {
          "blockIndex": 0,
          "type": "reasoning-start",
        },
        {
          "blockIndex": 0,
          "text": "Let me see.",
          "type": "reasoning-delta",
        },
        {
          "artefact": {
            "producer": "anthropic",
            "signature": "c2ln",
          },
          "blockIndex": 0,
          "type": "reasoning-end",
        },
        {
          "blockIndex": 1,
          "type": "text-start",
        },
        {
          "blockIndex": 1,
          "text": "Checking the ",
          "type": "text-delta",
        },
        {
          "blockIndex": 1,
          "text": "weather — ☀",
          "type": "text-delta",
        },
        {
          "blockIndex": 1,
          "type": "text-end",
        },
        {
          "blockIndex": 2,
          "callId": "toolu_9",
          "name": "get_weather",
          "type": "tool-call-start",
        },
        {
          "argumentsDelta": "{"city":",
          "blockIndex": 2,
          "type": "tool-call-delta",
        },
        {
          "argumentsDelta": ""Paris"}",
          "blockIndex": 2,
          "type": "tool-call-delta",
        },
        {
          "blockIndex": 2,
          "type": "tool-call-end",
        },
        {
          "type": "usage",
          "usage": {
            "cacheReadInputTokens": 40,
            "cacheWriteInputTokens": 3,
            "inputTokens": 55,
            "outputTokens": 25,
            "reasoningTokens": 5,
          },
        },
        {
          "finish": {
            "rawReason": "tool_use",
            "reason": "tool-calls",
          },
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
          "id": "chatcmpl-test",
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
          "id": "chatcmpl-test",
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
          "id": "chatcmpl-test",
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
          "id": "chatcmpl-test",
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
                      "arguments": "{"city":"Paris"}",
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
          "id": "chatcmpl-test",
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
          "id": "chatcmpl-test",
          "model": "claude-sonnet",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [],
          "created": 1700000000,
          "id": "chatcmpl-test",
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

  it('keeps a thinking signature and redacted thinking as Anthropic artefacts on the reasoning blocks, and the stop sequence', async () => {
    const parts = await decode(
      sse([
        messageStart,
        ['content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }],
        ['content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } }],
        ['content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'c2lnbmF0dXJl' } }],
        ['content_block_stop', { index: 0 }],
        ['content_block_start', { index: 1, content_block: { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' } }],
        ['content_block_stop', { index: 1 }],
        ['content_block_start', { index: 2, content_block: { type: 'text', text: '' } }],
        ['content_block_delta', { index: 2, delta: { type: 'text_delta', text: 'Done' } }],
        ['content_block_stop', { index: 2 }],
        [
          'message_delta',
          { delta: { stop_reason: 'stop_sequence', stop_sequence: 'END' }, usage: { output_tokens: 9 } },
        ],
        ['message_stop', {}],
      ]),
    );
    expect(foldStreamParts(parts)).toEqual({
      blocks: [
        {
          type: 'reasoning',
          text: 'Hmm.',
          artefact: { producer: 'anthropic', signature: 'c2lnbmF0dXJl' },
          ended: true,
        },
        { type: 'reasoning', text: '', artefact: { producer: 'anthropic', redactedData: 'ZW5jcnlwdGVk' }, ended: true },
        { type: 'text', text: 'Done', ended: true },
      ],
      finish: { reason: 'stop', rawReason: 'stop_sequence', stopSequence: 'END' },
      usage: {
        inputTokens: 55,
        cacheReadInputTokens: 40,
        cacheWriteInputTokens: 3,
        outputTokens: 9,
        reasoningTokens: 0,
      },
      failure: null,
    });
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
      { type: 'text-start', blockIndex: 0 },
      { type: 'text-delta', blockIndex: 0, text: 'Hel' },
      { type: 'error', failure: { message: 'Overloaded', code: 'service_unavailable' } },
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
    expect(parts.at(-1)).toEqual({ type: 'finish', finish: { reason: 'length', rawReason: 'max_tokens' } });
    expect(parts.filter((part) => part.type === 'text-end')).toEqual([{ type: 'text-end', blockIndex: 0 }]);
  });
});
