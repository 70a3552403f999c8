import { describe, expect, it } from 'vitest';
import type { VendorCall } from '../vendor-adapter.js';
import { chatAnswerOfParts } from '../../../test/helpers/chat-answer-of-parts.js';
import { decodeBedrockChatResponse as decodeParts } from './decode-bedrock-chat-response.js';

/** The vendor answer as a chat client receives it (folded and encoded as dispatch does), with the usage billing reads. */
function decodeBedrockChatResponse(bodyText: string, vendorCall: VendorCall) {
  return chatAnswerOfParts(decodeParts(bodyText, vendorCall), vendorCall.publicModelId);
}

const call: VendorCall = {
  channel: { baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com', secret: 'a:b', settings: {} },
  upstreamModelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  publicModelId: 'claude-3-5-sonnet-20240620',
  maxOutputTokens: 8192,
  stream: false,
  clock: () => 1_700_000_000_500,
};

describe('decodeBedrockChatResponse', () => {
  it('maps text, stop reason and usage with cache reads and writes counted as prompt tokens, writes kept apart for their price', () => {
    const { completion, usage } = decodeBedrockChatResponse(
      JSON.stringify({
        output: {
          message: {
            role: 'assistant',
            content: [
              { reasoningContent: { reasoningText: { text: 'hidden' } } },
              { text: 'Hello ' },
              { text: 'there' },
            ],
          },
        },
        stopReason: 'end_turn',
        usage: { inputTokens: 3, outputTokens: 2, totalTokens: 15, cacheReadInputTokens: 8, cacheWriteInputTokens: 2 },
      }),
      call,
    );
    expect(completion).toMatchObject({
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'claude-3-5-sonnet-20240620',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello there', refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 13, completion_tokens: 2, total_tokens: 15, prompt_tokens_details: { cached_tokens: 8 } },
    });
    expect(usage).toEqual({
      promptTokens: 13,
      completionTokens: 2,
      totalTokens: 15,
      cachedPromptTokens: 8,
      reasoningTokens: 0,
      cacheWritePromptTokens: 2,
    });
  });

  it('maps tool calls with JSON-encoded input and null content', () => {
    const { completion } = decodeBedrockChatResponse(
      JSON.stringify({
        output: {
          message: {
            role: 'assistant',
            content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } }],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 5, outputTokens: 10, totalTokens: 15 },
      }),
      call,
    );
    expect(completion.choices[0]).toMatchObject({
      message: {
        content: null,
        tool_calls: [
          { id: 'tooluse_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it.each([
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['guardrail_intervened', 'content_filter'],
    ['content_filtered', 'content_filter'],
    ['something_new', 'stop'],
  ])('maps stopReason %s to %s', (stopReason, finishReason) => {
    const { completion } = decodeBedrockChatResponse(
      JSON.stringify({ output: { message: { content: [{ text: 'x' }] } }, stopReason }),
      call,
    );
    expect(completion.choices[0]?.finish_reason).toBe(finishReason);
  });

  it('refuses a body that is not a Converse answer with a server error', () => {
    expect(() => decodeParts('<html>', call)).toThrow(expect.objectContaining({ code: 'server_error' }));
  });
});
