import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { encodeChatChunks } from '../../../test/helpers/encode-chat-chunks.js';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import type { VendorCall } from '../vendor-adapter.js';
import { decodeGeminiStream } from './decode-gemini-stream.js';

const call: VendorCall = {
  channel: { baseUrl: 'https://gemini.example.test/v1beta', secret: 'AIza-secret', settings: {} },
  upstreamModelId: 'gemini-2.5-pro',
  publicModelId: 'gemini-pro',
  maxOutputTokens: undefined,
  stream: true,
  clock: () => 1_700_000_000_000,
};

/** SSE with CRLF separators, fed in 5-byte pieces. */
async function decode(chunks: unknown[]): Promise<CanonicalStreamPart[]> {
  const bytes = Buffer.from(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(''));
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += 5) pieces.push(bytes.subarray(start, start + 5));
  const parts: CanonicalStreamPart[] = [];
  for await (const part of decodeGeminiStream(Readable.from(pieces), call)) parts.push(part);
  return parts;
}

function toOpenAiChunks(parts: CanonicalStreamPart[]): unknown[] {
  return encodeChatChunks(parts, { model: 'gemini-pro' });
}

const envelope = { modelVersion: 'gemini-2.5-pro', responseId: 'resp1' };

describe('decodeGeminiStream', () => {
  it('turns thoughts, text, whole function calls (with signatures) and the last usage into OpenAI chunks', async () => {
    const parts = await decode([
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Thinking about it', thought: true }] }, index: 0 }],
        usageMetadata: { promptTokenCount: 20 },
        ...envelope,
      },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Let me check ' }] }, index: 0 }], ...envelope },
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2ln+/8=' },
                { functionCall: { name: 'get_time', args: {} } },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: 20,
          candidatesTokenCount: 9,
          thoughtsTokenCount: 4,
          cachedContentTokenCount: 8,
          totalTokenCount: 33,
        },
        ...envelope,
      },
    ]);
    expect(parts).toMatchInlineSnapshot(`
      [
        {
          "type": "response-start",
          "vendorModel": "gemini-2.5-pro",
          "vendorResponseId": "resp1",
        },
        {
          "blockIndex": 0,
          "type": "reasoning-start",
        },
        {
          "blockIndex": 0,
          "text": "Thinking about it",
          "type": "reasoning-delta",
        },
        {
          "blockIndex": 0,
          "type": "reasoning-end",
        },
        {
          "blockIndex": 1,
          "type": "text-start",
        },
        {
          "blockIndex": 1,
          "text": "Let me check ",
          "type": "text-delta",
        },
        {
          "blockIndex": 1,
          "type": "text-end",
        },
        {
          "blockIndex": 2,
          "callId": "call_resp1_0_0",
          "name": "get_weather",
          "type": "tool-call-start",
        },
        {
          "argumentsDelta": "{"city":"Paris"}",
          "blockIndex": 2,
          "type": "tool-call-delta",
        },
        {
          "artefact": {
            "producer": "gemini",
            "signature": "c2ln+/8=",
          },
          "blockIndex": 2,
          "type": "tool-call-end",
        },
        {
          "blockIndex": 3,
          "callId": "call_resp1_0_1",
          "name": "get_time",
          "type": "tool-call-start",
        },
        {
          "argumentsDelta": "{}",
          "blockIndex": 3,
          "type": "tool-call-delta",
        },
        {
          "blockIndex": 3,
          "type": "tool-call-end",
        },
        {
          "type": "usage",
          "usage": {
            "cacheReadInputTokens": 8,
            "cacheWriteInputTokens": 0,
            "inputTokens": 20,
            "outputTokens": 13,
            "reasoningTokens": 4,
          },
        },
        {
          "finish": {
            "rawReason": "STOP",
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
          "model": "gemini-pro",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [
            {
              "delta": {
                "reasoning_content": "Thinking about it",
              },
              "finish_reason": null,
              "index": 0,
              "logprobs": null,
            },
          ],
          "created": 1700000000,
          "id": "chatcmpl-test",
          "model": "gemini-pro",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [
            {
              "delta": {
                "content": "Let me check ",
              },
              "finish_reason": null,
              "index": 0,
              "logprobs": null,
            },
          ],
          "created": 1700000000,
          "id": "chatcmpl-test",
          "model": "gemini-pro",
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
                    "id": "call_resp1_0_0__sig_gemini_c2ln-_8",
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
          "model": "gemini-pro",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [
            {
              "delta": {
                "tool_calls": [
                  {
                    "function": {
                      "arguments": "{}",
                      "name": "get_time",
                    },
                    "id": "call_resp1_0_1",
                    "index": 1,
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
          "model": "gemini-pro",
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
          "model": "gemini-pro",
          "object": "chat.completion.chunk",
        },
        {
          "choices": [],
          "created": 1700000000,
          "id": "chatcmpl-test",
          "model": "gemini-pro",
          "object": "chat.completion.chunk",
          "usage": {
            "completion_tokens": 13,
            "completion_tokens_details": {
              "reasoning_tokens": 4,
            },
            "prompt_tokens": 20,
            "prompt_tokens_details": {
              "cached_tokens": 8,
            },
            "total_tokens": 33,
          },
        },
      ]
    `);
  });

  it('ends a thought with the signature Gemini sent on it, or on the first answer part after it, as a Gemini artefact', async () => {
    const onThought = await decode([
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'Hmm', thought: true, thoughtSignature: 'dGhvdWdodA==' }] },
            index: 0,
          },
        ],
        ...envelope,
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Yes.' }] }, finishReason: 'STOP', index: 0 }],
        ...envelope,
      },
    ]);
    expect(onThought.filter((part) => part.type === 'reasoning-end')).toEqual([
      { type: 'reasoning-end', blockIndex: 0, artefact: { producer: 'gemini', signature: 'dGhvdWdodA==' } },
    ]);
    const afterThought = await decode([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'Hmm', thought: true },
                { text: 'Yes.', thoughtSignature: 'bGF0ZQ==' },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        ...envelope,
      },
    ]);
    expect(afterThought.filter((part) => part.type === 'reasoning-end')).toEqual([
      { type: 'reasoning-end', blockIndex: 0, artefact: { producer: 'gemini', signature: 'bGF0ZQ==' } },
    ]);
    expect(afterThought.filter((part) => part.type === 'text-end')).toEqual([{ type: 'text-end', blockIndex: 1 }]);
  });

  it('maps MAX_TOKENS to length, a blocked prompt to content_filter, and an error chunk to an error part', async () => {
    const cut = await decode([
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'a b' }] }, finishReason: 'MAX_TOKENS', index: 0 }],
        ...envelope,
      },
    ]);
    expect(cut.at(-1)).toEqual({ type: 'finish', finish: { reason: 'length', rawReason: 'MAX_TOKENS' } });
    const blocked = await decode([
      {
        promptFeedback: { blockReason: 'SAFETY' },
        usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 },
        ...envelope,
      },
    ]);
    expect(blocked.at(-1)).toEqual({ type: 'finish', finish: { reason: 'content-filter', rawReason: 'SAFETY' } });
    const failed = await decode([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'partial' }] }, index: 0 }], ...envelope },
      { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } },
    ]);
    expect(failed.at(-1)).toEqual({
      type: 'error',
      failure: { message: 'The model is overloaded.', code: 'service_unavailable' },
    });
  });
});
