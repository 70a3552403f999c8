import { describe, expect, it } from 'vitest';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { foldStreamParts } from '../../core/canonical/fold-stream-parts.js';
import { createChatAnswerCodec } from './chat-answer-codec.js';

const identity = { id: 'chatcmpl-1', model: 'public-model', created: 1_700_000_000 };
const usage = {
  inputTokens: 5,
  cacheReadInputTokens: 1,
  cacheWriteInputTokens: 0,
  outputTokens: 2,
  reasoningTokens: 0,
};
const textAnswer: CanonicalStreamPart[] = [
  { type: 'response-start', vendorResponseId: 'msg_vendor' },
  { type: 'text-start', blockIndex: 0 },
  { type: 'text-delta', blockIndex: 0, text: 'Hi' },
  { type: 'text-delta', blockIndex: 0, text: '' },
  { type: 'text-delta', blockIndex: 0, text: ' there' },
  { type: 'text-end', blockIndex: 0 },
  { type: 'usage', usage },
  { type: 'finish', finish: { reason: 'stop', rawReason: 'end_turn' } },
];

function streamFrames(parts: CanonicalStreamPart[], clientWantsUsage: boolean): string[] {
  const encoder = createChatAnswerCodec(identity, clientWantsUsage).createStreamEncoder();
  return [...encoder.start(), ...parts.flatMap((part) => encoder.push(part)), ...encoder.end()];
}

function payloads(frames: string[]): Array<Record<string, unknown>> {
  return frames
    .filter((frame) => frame !== 'data: [DONE]\n\n')
    .map((frame) => JSON.parse(frame.replace(/^data: /, '')) as Record<string, unknown>);
}

describe('the chat answer codec, streamed', () => {
  it('sends the role once with the first content, keeps its own id (never the vendor one), and ends with the usage chunk only when asked, then [DONE]', () => {
    const withUsage = streamFrames(textAnswer, true);
    expect(withUsage.every((frame) => frame.startsWith('data: ') && frame.endsWith('\n\n'))).toBe(true);
    expect(withUsage.at(-1)).toBe('data: [DONE]\n\n');
    const chunks = payloads(withUsage);
    expect(chunks.map((chunk) => chunk.id)).toEqual(Array(5).fill('chatcmpl-1'));
    expect(chunks.map((chunk) => (chunk.choices as Array<{ delta: unknown }>)[0]?.delta ?? null)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Hi' },
      { content: ' there' },
      {},
      null,
    ]);
    expect(chunks.at(-1)).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'public-model',
      choices: [],
      usage: {
        prompt_tokens: 5,
        completion_tokens: 2,
        total_tokens: 7,
        prompt_tokens_details: { cached_tokens: 1 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(payloads(streamFrames(textAnswer, false))).toHaveLength(4);
  });

  it('numbers tool calls from 0 in start order whatever their block index, writes each whole at its end with its artefact in the id, and opens a tool-call-only answer with content null', () => {
    const chunks = payloads(
      streamFrames(
        [
          { type: 'reasoning-start', blockIndex: 0 },
          { type: 'reasoning-end', blockIndex: 0, artefact: { producer: 'anthropic', signature: 'never shown' } },
          { type: 'tool-call-start', blockIndex: 1, callId: 'call_1', name: 'f' },
          { type: 'tool-call-start', blockIndex: 2, callId: 'call_2', name: 'g' },
          { type: 'tool-call-delta', blockIndex: 2, argumentsDelta: '{"b":1}' },
          { type: 'tool-call-delta', blockIndex: 1, argumentsDelta: '{}' },
          { type: 'tool-call-end', blockIndex: 1 },
          { type: 'tool-call-end', blockIndex: 2, artefact: { producer: 'gemini', signature: 'c2ln' } },
          { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
        ],
        false,
      ),
    );
    expect(JSON.stringify(chunks)).not.toContain('never shown');
    expect(chunks.map((chunk) => (chunk.choices as Array<{ delta: unknown; finish_reason: unknown }>)[0])).toEqual([
      { index: 0, delta: { role: 'assistant', content: null }, logprobs: null, finish_reason: null },
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        logprobs: null,
        finish_reason: null,
      },
      {
        index: 0,
        delta: {
          tool_calls: [
            {
              index: 1,
              id: 'call_2__sig_gemini_c2ln',
              type: 'function',
              function: { name: 'g', arguments: '{"b":1}' },
            },
          ],
        },
        logprobs: null,
        finish_reason: null,
      },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' },
    ]);
  });

  it('writes a tool call the vendor never ended before the finish, as it is', () => {
    const chunks = payloads(
      streamFrames(
        [
          { type: 'tool-call-start', blockIndex: 0, callId: 'call_1', name: 'f' },
          { type: 'tool-call-delta', blockIndex: 0, argumentsDelta: '{"a":' },
          { type: 'finish', finish: { reason: 'length', rawReason: 'max_tokens' } },
        ],
        false,
      ),
    );
    expect(chunks.map((chunk) => (chunk.choices as Array<{ delta: unknown }>)[0]?.delta)).toEqual([
      { role: 'assistant', content: null },
      { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":' } }] },
      {},
    ]);
  });

  it('streams reasoning as reasoning_content deltas', () => {
    const chunks = payloads(
      streamFrames(
        [
          { type: 'reasoning-start', blockIndex: 0 },
          { type: 'reasoning-delta', blockIndex: 0, text: 'hmm' },
        ],
        false,
      ),
    );
    expect((chunks[1]?.choices as Array<{ delta: unknown }>)[0]?.delta).toEqual({ reasoning_content: 'hmm' });
  });

  it('fails with an OpenAI error event and no [DONE]', () => {
    const frames = createChatAnswerCodec(identity, true)
      .createStreamEncoder()
      .fail({ code: 'service_unavailable', message: 'Overloaded' });
    expect(frames).toHaveLength(1);
    expect(frames[0]).not.toContain('[DONE]');
    expect(JSON.parse((frames[0] ?? '').replace(/^data: /, ''))).toMatchObject({
      error: { message: 'Overloaded', code: 'service_unavailable' },
    });
  });
});

describe('the chat answer codec, not streamed', () => {
  it('writes a chat.completion with the text joined, tool calls (each call artefact in its id), the finish reason and the usage, and no reasoning', () => {
    const answer = foldStreamParts([
      { type: 'reasoning-start', blockIndex: 0 },
      { type: 'reasoning-delta', blockIndex: 0, text: 'hidden' },
      { type: 'reasoning-end', blockIndex: 0 },
      ...textAnswer
        .map((part) => ('blockIndex' in part ? { ...part, blockIndex: part.blockIndex + 1 } : part))
        .filter((part) => part.type !== 'finish'),
      { type: 'tool-call-start', blockIndex: 2, callId: 'call_1', name: 'f' },
      { type: 'tool-call-delta', blockIndex: 2, argumentsDelta: '{}' },
      { type: 'tool-call-end', blockIndex: 2, artefact: { producer: 'gemini', signature: 'c2ln' } },
      { type: 'finish', finish: { reason: 'tool-calls', rawReason: 'tool_use' } },
    ] as CanonicalStreamPart[]);
    expect(JSON.parse(createChatAnswerCodec(identity, false).encodeAnswer(answer))).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'public-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Hi there',
            refusal: null,
            tool_calls: [{ id: 'call_1__sig_gemini_c2ln', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 5,
        completion_tokens: 2,
        total_tokens: 7,
        prompt_tokens_details: { cached_tokens: 1 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
  });

  it('writes content null, finish stop and zero usage for an empty answer the vendor never finished', () => {
    const completion = JSON.parse(createChatAnswerCodec(identity, false).encodeAnswer(foldStreamParts([]))) as {
      choices: Array<{ message: { content: unknown }; finish_reason: string }>;
      usage: unknown;
    };
    expect(completion.choices[0]).toMatchObject({ message: { content: null }, finish_reason: 'stop' });
    expect(completion.usage).toMatchObject({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  });
});
