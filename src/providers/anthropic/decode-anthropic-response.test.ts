import { describe, expect, it } from 'vitest';
import type { VendorCall } from '../vendor-adapter.js';
import { chatAnswerOfParts } from '../../../test/helpers/chat-answer-of-parts.js';
import { decodeAnthropicResponse as decodeParts } from './decode-anthropic-response.js';
import { mapAnthropicFailure } from './map-anthropic-failure.js';

/** The vendor answer as a chat client receives it (folded and encoded as dispatch does), with the usage billing reads. */
function decodeAnthropicResponse(bodyText: string, vendorCall: VendorCall) {
  return chatAnswerOfParts(decodeParts(bodyText, vendorCall), vendorCall.publicModelId);
}

const call: VendorCall = {
  channel: { baseUrl: 'https://anthropic.example.test/v1', secret: 'sk-ant-secret', settings: {} },
  upstreamModelId: 'claude-sonnet-4-5',
  publicModelId: 'claude-sonnet',
  maxOutputTokens: undefined,
  stream: false,
  clock: () => 1_700_000_000_000,
};

describe('decodeAnthropicResponse', () => {
  it('joins text blocks, turns tool_use into tool_calls and counts cache reads and writes into the prompt', () => {
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'thinking', thinking: 'hidden', signature: 'c2ln' },
        { type: 'text', text: 'Let me check. ', citations: null },
        { type: 'text', text: 'One moment.', citations: null },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', days: 2 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 100,
        cache_read_input_tokens: 1000,
        output_tokens: 30,
        output_tokens_details: { thinking_tokens: 12 },
      },
    };
    const decoded = decodeAnthropicResponse(JSON.stringify(message), call);
    expect(decoded).toMatchInlineSnapshot(`
      {
        "answer": {
          "blocks": [
            {
              "artefact": {
                "producer": "anthropic",
                "signature": "c2ln",
              },
              "ended": true,
              "text": "hidden",
              "type": "reasoning",
            },
            {
              "ended": true,
              "text": "Let me check. ",
              "type": "text",
            },
            {
              "ended": true,
              "text": "One moment.",
              "type": "text",
            },
            {
              "arguments": "{"city":"Paris","days":2}",
              "callId": "toolu_1",
              "ended": true,
              "name": "get_weather",
              "type": "tool-call",
            },
          ],
          "failure": null,
          "finish": {
            "rawReason": "tool_use",
            "reason": "tool-calls",
          },
          "usage": {
            "cacheReadInputTokens": 1000,
            "cacheWriteInputTokens": 100,
            "inputTokens": 1110,
            "outputTokens": 30,
            "reasoningTokens": 12,
          },
        },
        "completion": {
          "choices": [
            {
              "finish_reason": "tool_calls",
              "index": 0,
              "logprobs": null,
              "message": {
                "content": "Let me check. One moment.",
                "refusal": null,
                "role": "assistant",
                "tool_calls": [
                  {
                    "function": {
                      "arguments": "{"city":"Paris","days":2}",
                      "name": "get_weather",
                    },
                    "id": "toolu_1",
                    "type": "function",
                  },
                ],
              },
            },
          ],
          "created": 1700000000,
          "id": "chatcmpl-test",
          "model": "claude-sonnet",
          "object": "chat.completion",
          "usage": {
            "completion_tokens": 30,
            "completion_tokens_details": {
              "reasoning_tokens": 12,
            },
            "prompt_tokens": 1110,
            "prompt_tokens_details": {
              "cached_tokens": 1000,
            },
            "total_tokens": 1140,
          },
        },
        "usage": {
          "cacheWritePromptTokens": 100,
          "cachedPromptTokens": 1000,
          "completionTokens": 30,
          "promptTokens": 1110,
          "reasoningTokens": 12,
          "totalTokens": 1140,
        },
      }
    `);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'stop'],
  ])('maps stop_reason %s to finish_reason %s', (stopReason, finishReason) => {
    const body = JSON.stringify({
      id: 'msg_2',
      content: [{ type: 'text', text: 'x' }],
      stop_reason: stopReason,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    expect(decodeAnthropicResponse(body, call).completion.choices[0]?.finish_reason).toBe(finishReason);
  });
});

describe('mapAnthropicFailure', () => {
  const body = (type: string, message: string) =>
    JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_1' });

  it.each([
    [400, 'final-failure', 'invalid_request_error', 400],
    [401, 'retryable-failure', 'service_unavailable', 503],
    [403, 'retryable-failure', 'service_unavailable', 503],
    [404, 'retryable-failure', 'model_not_found', 404],
    [429, 'retryable-failure', 'rate_limit_exceeded', 429],
    [500, 'retryable-failure', 'server_error', 500],
    [529, 'retryable-failure', 'service_unavailable', 503],
    [503, 'retryable-failure', 'service_unavailable', 503],
  ])('maps status %i to a %s %s (%i)', (status, kind, code, clientStatus) => {
    const result = mapAnthropicFailure(status, body('some_error', 'problem'), '7');
    expect(result.kind).toBe(kind);
    if (result.kind === 'success') throw new Error('unexpected success');
    expect(result.error.code).toBe(code);
    expect(result.error.status).toBe(clientStatus);
  });

  it('passes the redacted vendor message on a 400 and the retry-after on a 429', () => {
    const invalid = mapAnthropicFailure(
      400,
      body('invalid_request_error', 'messages.0: bad key sk-ant-abcdefghijklmnop at https://api.anthropic.com/v1'),
      undefined,
    );
    if (invalid.kind === 'success') throw new Error('unexpected success');
    expect(invalid.error.message).toBe('messages.0: bad key [redacted] at [url]');
    const limited = mapAnthropicFailure(429, body('rate_limit_error', 'slow down'), '7');
    if (limited.kind === 'success') throw new Error('unexpected success');
    expect(limited.error.headers).toEqual({ 'retry-after': '7' });
  });
});
