import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import { chatRequestToCanonical } from '../../protocols/openai-chat/chat-request-to-canonical.js';
import type { VendorCall } from '../vendor-adapter.js';
import { encodeAnthropicRequest } from './encode-anthropic-request.js';

function callFor(apiVersion: string | undefined, overrides: Partial<VendorCall> = {}): VendorCall {
  return {
    channel: {
      baseUrl: 'https://anthropic.example.test/v1',
      secret: 'sk-ant-secret',
      settings: apiVersion ? { apiVersion } : {},
    },
    upstreamModelId: 'claude-sonnet-4-5',
    publicModelId: 'claude-sonnet',
    maxOutputTokens: 64000,
    stream: false,
    clock: () => 1_700_000_000_000,
    ...overrides,
  };
}

function encode(request: Partial<ChatCompletionRequest>, call: VendorCall = callFor(undefined)) {
  const encoded = encodeAnthropicRequest(
    chatRequestToCanonical({ model: 'claude-sonnet', messages: [{ role: 'user', content: 'hi' }], ...request }),
    call,
  );
  return { url: encoded.url, headers: encoded.headers, body: JSON.parse(encoded.body) as Record<string, unknown> };
}

function refusal(action: () => unknown): { param: string | null; status: number } {
  try {
    action();
  } catch (error) {
    if (error instanceof GatewayError) return { param: error.param, status: error.status };
    throw error;
  }
  throw new Error('expected a 400');
}

describe('encodeAnthropicRequest', () => {
  it('maps a tool round trip with system, image and merged turns to the Messages body (2023-06-01)', () => {
    const encoded = encode({
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture and the weather?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://images.example.test/cat.jpg' } }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '12:00' }] },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
        { type: 'function', function: { name: 'get_time' } },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0.2,
      top_p: 0.9,
      stop: 'END',
      max_tokens: 300,
      user: 'user-42',
      seed: 7,
    });
    expect(encoded).toMatchInlineSnapshot(`
      {
        "body": {
          "max_tokens": 300,
          "messages": [
            {
              "content": [
                {
                  "text": "What is in this picture and the weather?",
                  "type": "text",
                },
                {
                  "source": {
                    "data": "AAAA",
                    "media_type": "image/png",
                    "type": "base64",
                  },
                  "type": "image",
                },
                {
                  "source": {
                    "type": "url",
                    "url": "https://images.example.test/cat.jpg",
                  },
                  "type": "image",
                },
              ],
              "role": "user",
            },
            {
              "content": [
                {
                  "id": "toolu_1",
                  "input": {
                    "city": "Paris",
                  },
                  "name": "get_weather",
                  "type": "tool_use",
                },
                {
                  "id": "toolu_2",
                  "input": {},
                  "name": "get_time",
                  "type": "tool_use",
                },
              ],
              "role": "assistant",
            },
            {
              "content": [
                {
                  "content": "sunny",
                  "tool_use_id": "toolu_1",
                  "type": "tool_result",
                },
                {
                  "cache_control": {
                    "type": "ephemeral",
                  },
                  "content": "12:00",
                  "tool_use_id": "toolu_2",
                  "type": "tool_result",
                },
              ],
              "role": "user",
            },
          ],
          "metadata": {
            "user_id": "user-42",
          },
          "model": "claude-sonnet-4-5",
          "stop_sequences": [
            "END",
          ],
          "system": [
            {
              "cache_control": {
                "type": "ephemeral",
              },
              "text": "Be brief.",
              "type": "text",
            },
          ],
          "temperature": 0.2,
          "tool_choice": {
            "disable_parallel_tool_use": true,
            "type": "any",
          },
          "tools": [
            {
              "description": "Weather",
              "input_schema": {
                "properties": {
                  "city": {
                    "type": "string",
                  },
                },
                "type": "object",
              },
              "name": "get_weather",
            },
            {
              "input_schema": {
                "properties": {},
                "type": "object",
              },
              "name": "get_time",
            },
          ],
          "top_p": 0.9,
        },
        "headers": {
          "anthropic-version": "2023-06-01",
          "content-type": "application/json",
          "x-api-key": "sk-ant-secret",
        },
        "url": "https://anthropic.example.test/v1/messages",
      }
    `);
  });

  it('uses bearer auth, output_config.format and no sampling fields for 2026-10-21', () => {
    const encoded = encode(
      {
        temperature: 1,
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'answer', schema: { type: 'object', properties: { answer: { type: 'string' } } } },
        },
        stream: true,
      },
      callFor('2026-10-21', { stream: true }),
    );
    expect(encoded.headers).toEqual({
      authorization: 'Bearer sk-ant-secret',
      'anthropic-version': '2026-10-21',
      'content-type': 'application/json',
    });
    expect(encoded.body).toMatchInlineSnapshot(`
      {
        "max_tokens": 64000,
        "messages": [
          {
            "content": [
              {
                "cache_control": {
                  "type": "ephemeral",
                },
                "text": "hi",
                "type": "text",
              },
            ],
            "role": "user",
          },
        ],
        "model": "claude-sonnet-4-5",
        "output_config": {
          "format": {
            "schema": {
              "additionalProperties": false,
              "properties": {
                "answer": {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "type": "json_schema",
          },
        },
        "stream": true,
      }
    `);
  });

  it('refuses a non-default temperature for 2026-10-21 with a 400 naming temperature, never dropping it', () => {
    expect(refusal(() => encode({ temperature: 0.3 }, callFor('2026-10-21')))).toEqual({
      param: 'temperature',
      status: 400,
    });
    expect(refusal(() => encode({ top_p: 0.5 }, callFor('2026-10-21')))).toEqual({ param: 'top_p', status: 400 });
  });

  it('sends a JSON schema as output_config.format on 2023-06-01 too (Anthropic accepts it there)', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, additionalProperties: false };
    const encoded = encode({ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } } });
    expect(encoded.headers['anthropic-version']).toBe('2023-06-01');
    expect(encoded.body.output_config).toEqual({ format: { type: 'json_schema', schema } });
  });

  it('asks for a JSON object as a forced call of the json_answer tool on every version', () => {
    for (const version of ['2023-06-01', '2026-10-21']) {
      const { body } = encode({ response_format: { type: 'json_object' } }, callFor(version));
      expect(body.tools).toEqual([
        {
          name: 'json_answer',
          description: 'Give your whole answer as this JSON object.',
          input_schema: { type: 'object' },
        },
      ]);
      expect(body.tool_choice).toEqual({ type: 'tool', name: 'json_answer' });
      expect(body.output_config).toBeUndefined();
    }
  });

  it('refuses what Anthropic cannot honour: json_object with tools or thinking, n > 1, temperature above 1, an effort for a model that cannot think', () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_time' } }];
    expect(refusal(() => encode({ response_format: { type: 'json_object' }, tools }))).toEqual({
      param: 'response_format',
      status: 400,
    });
    expect(refusal(() => encode({ response_format: { type: 'json_object' }, reasoning_effort: 'low' }))).toEqual({
      param: 'response_format',
      status: 400,
    });
    expect(refusal(() => encode({ n: 2 }))).toEqual({ param: 'n', status: 400 });
    expect(refusal(() => encode({ temperature: 1.5 }))).toEqual({ param: 'temperature', status: 400 });
    expect(
      refusal(() =>
        encode({ reasoning_effort: 'high' }, callFor(undefined, { upstreamModelId: 'claude-3-5-sonnet-20241022' })),
      ),
    ).toEqual({ param: 'reasoning_effort', status: 400 });
    expect(refusal(() => encode({ modalities: ['text', 'audio'] }))).toEqual({ param: 'modalities', status: 400 });
    expect(
      refusal(() =>
        encode({
          messages: [
            {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '[1]' } }],
            },
          ],
        }),
      ),
    ).toEqual({
      param: 'messages[0].tool_calls[0].function.arguments',
      status: 400,
    });
  });

  it('takes max_tokens from max_completion_tokens, then max_tokens, then the catalog, then 4096', () => {
    expect(encode({ max_completion_tokens: 10, max_tokens: 20 }).body.max_tokens).toBe(10);
    expect(encode({ max_tokens: 20 }).body.max_tokens).toBe(20);
    expect(encode({}).body.max_tokens).toBe(64000);
    expect(encode({}, callFor(undefined, { maxOutputTokens: undefined })).body.max_tokens).toBe(4096);
  });

  it('maps tool_choice auto/none/named and leaves disable_parallel_tool_use off none', () => {
    const tools: ChatCompletionRequest['tools'] = [{ type: 'function', function: { name: 'f' } }];
    expect(encode({ tools, tool_choice: 'auto' }).body.tool_choice).toEqual({ type: 'auto' });
    expect(encode({ tools, tool_choice: 'none', parallel_tool_calls: false }).body.tool_choice).toEqual({
      type: 'none',
    });
    expect(encode({ tools, tool_choice: { type: 'function', function: { name: 'f' } } }).body.tool_choice).toEqual({
      type: 'tool',
      name: 'f',
    });
    expect(encode({ tools }).body.tool_choice).toBeUndefined();
  });
});
