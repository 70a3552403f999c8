import { describe, expect, it } from 'vitest';
import type { ChatStreamPart } from '../../core/chat-stream-part.js';
import { createOpenAiChunkEncoder } from './encode-openai-chunks.js';

const usagePart: ChatStreamPart = { type: 'usage', usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7, cachedPromptTokens: 1, reasoningTokens: 0 } };

function encodeAll(parts: ChatStreamPart[], clientWantsUsage: boolean): Array<Record<string, unknown>> {
  const encoder = createOpenAiChunkEncoder({ id: 'chatcmpl-1', model: 'public-model', created: 1_700_000_000, clientWantsUsage });
  return [...parts.flatMap((part) => encoder.encode(part)), ...encoder.end()].map((chunk) => JSON.parse(chunk) as Record<string, unknown>);
}

describe('createOpenAiChunkEncoder', () => {
  it('sends the role once with the first content, adopts the vendor id from start, and ends with the usage chunk only when asked', () => {
    const parts: ChatStreamPart[] = [
      { type: 'start', responseId: 'msg_vendor' },
      { type: 'text-delta', text: 'Hi' },
      { type: 'text-delta', text: '' },
      { type: 'text-delta', text: ' there' },
      usagePart,
      { type: 'finish', finishReason: 'stop', rawReason: 'end_turn' },
    ];
    const withUsage = encodeAll(parts, true);
    expect(withUsage.map((chunk) => chunk.id)).toEqual(Array(5).fill('msg_vendor'));
    expect(withUsage.map((chunk) => (chunk.choices as Array<{ delta: unknown }>)[0]?.delta ?? null)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Hi' },
      { content: ' there' },
      {},
      null,
    ]);
    expect(withUsage.at(-1)).toEqual({
      id: 'msg_vendor',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'public-model',
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, prompt_tokens_details: { cached_tokens: 1 }, completion_tokens_details: { reasoning_tokens: 0 } },
    });
    expect(encodeAll(parts, false)).toHaveLength(4);
  });

  it('opens a tool-call-only answer with a role chunk whose content is null', () => {
    const chunks = encodeAll(
      [
        { type: 'tool-call-start', toolCallIndex: 0, id: 'call_1', name: 'f' },
        { type: 'tool-input-delta', toolCallIndex: 0, argumentsDelta: '{}' },
        { type: 'finish', finishReason: 'tool_calls', rawReason: 'tool_use' },
      ],
      false,
    );
    expect(chunks.map((chunk) => (chunk.choices as Array<{ delta: unknown; finish_reason: unknown }>)[0])).toMatchInlineSnapshot(`
      [
        {
          "delta": {
            "content": null,
            "role": "assistant",
          },
          "finish_reason": null,
          "index": 0,
          "logprobs": null,
        },
        {
          "delta": {
            "tool_calls": [
              {
                "function": {
                  "arguments": "",
                  "name": "f",
                },
                "id": "call_1",
                "index": 0,
                "type": "function",
              },
            ],
          },
          "finish_reason": null,
          "index": 0,
          "logprobs": null,
        },
        {
          "delta": {
            "tool_calls": [
              {
                "function": {
                  "arguments": "{}",
                },
                "index": 0,
              },
            ],
          },
          "finish_reason": null,
          "index": 0,
          "logprobs": null,
        },
        {
          "delta": {},
          "finish_reason": "tool_calls",
          "index": 0,
          "logprobs": null,
        },
      ]
    `);
  });
});
