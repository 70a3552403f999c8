import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import { chatRequestToCanonical } from '../../protocols/openai-chat/chat-request-to-canonical.js';
import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import type { RemoteImage } from '../remote-image/remote-image.js';
import { encodeBedrockConverseBody } from './encode-bedrock-converse-body.js';

const pixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
} as const;

// No image URLs were fetched for these requests.
const noRemoteImages = new Map<string, RemoteImage>();

function request(fields: Partial<ChatCompletionRequest>): CanonicalRequest {
  return chatRequestToCanonical({ model: 'claude', messages: [{ role: 'user', content: 'Hi' }], ...fields });
}

function refusal(fields: Partial<ChatCompletionRequest>): GatewayError {
  try {
    encodeBedrockConverseBody(request(fields), noRemoteImages);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('encodeBedrockConverseBody', () => {
  it('maps a full tool conversation: system on top, same-role turns merged, tool results in one user turn', () => {
    const body = encodeBedrockConverseBody(
      request({
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this image,' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${pixel}` } },
            ],
          },
          { role: 'user', content: 'and what is the weather in Paris and Rome?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
          { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'rain' }] },
          { role: 'developer', content: 'Answer in English.' },
        ],
        max_tokens: 300,
        temperature: 0.5,
        top_p: 0.9,
        stop: 'END',
        tools: [weatherTool],
        tool_choice: 'auto',
        parallel_tool_calls: true,
        seed: 7,
      }),
      noRemoteImages,
    );
    expect(body).toMatchInlineSnapshot(`
      {
        "inferenceConfig": {
          "maxTokens": 300,
          "stopSequences": [
            "END",
          ],
          "temperature": 0.5,
          "topP": 0.9,
        },
        "messages": [
          {
            "content": [
              {
                "text": "What is in this image,",
              },
              {
                "image": {
                  "format": "png",
                  "source": {
                    "bytes": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
                  },
                },
              },
              {
                "text": "and what is the weather in Paris and Rome?",
              },
            ],
            "role": "user",
          },
          {
            "content": [
              {
                "toolUse": {
                  "input": {
                    "city": "Paris",
                  },
                  "name": "get_weather",
                  "toolUseId": "call_1",
                },
              },
              {
                "toolUse": {
                  "input": {
                    "city": "Rome",
                  },
                  "name": "get_weather",
                  "toolUseId": "call_2",
                },
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "toolResult": {
                  "content": [
                    {
                      "text": "sunny",
                    },
                  ],
                  "toolUseId": "call_1",
                },
              },
              {
                "toolResult": {
                  "content": [
                    {
                      "text": "rain",
                    },
                  ],
                  "toolUseId": "call_2",
                },
              },
            ],
            "role": "user",
          },
        ],
        "system": [
          {
            "text": "Be brief.",
          },
          {
            "text": "Answer in English.",
          },
        ],
        "toolConfig": {
          "toolChoice": {
            "auto": {},
          },
          "tools": [
            {
              "toolSpec": {
                "description": "Weather for a city",
                "inputSchema": {
                  "json": {
                    "properties": {
                      "city": {
                        "type": "string",
                      },
                    },
                    "type": "object",
                  },
                },
                "name": "get_weather",
              },
            },
          ],
        },
      }
    `);
  });

  it('prefers max_completion_tokens, accepts a stop list, and sends no inferenceConfig when nothing is set', () => {
    expect(
      encodeBedrockConverseBody(
        request({ max_tokens: 10, max_completion_tokens: 20, stop: ['a', 'b'] }),
        noRemoteImages,
      ).inferenceConfig,
    ).toEqual({ maxTokens: 20, stopSequences: ['a', 'b'] });
    expect(encodeBedrockConverseBody(request({}), noRemoteImages).inferenceConfig).toBeUndefined();
  });

  it('maps tool_choice required to any and a named function to tool', () => {
    expect(
      encodeBedrockConverseBody(request({ tools: [weatherTool], tool_choice: 'required' }), noRemoteImages).toolConfig
        ?.toolChoice,
    ).toEqual({ any: {} });
    expect(
      encodeBedrockConverseBody(
        request({ tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_weather' } } }),
        noRemoteImages,
      ).toolConfig?.toolChoice,
    ).toEqual({
      tool: { name: 'get_weather' },
    });
  });

  it('omits the tools for tool_choice none, since Converse has no "none" choice', () => {
    expect(
      encodeBedrockConverseBody(request({ tools: [weatherTool], tool_choice: 'none' }), noRemoteImages).toolConfig,
    ).toBeUndefined();
  });

  it('gives a tool without parameters an empty object schema', () => {
    const body = encodeBedrockConverseBody(
      request({ tools: [{ type: 'function', function: { name: 'now' } }] }),
      noRemoteImages,
    );
    expect(body.toolConfig?.tools[0]).toEqual({
      toolSpec: { name: 'now', inputSchema: { json: { type: 'object', properties: {} } } },
    });
  });

  it('drops empty assistant turns rather than sending a blank block', () => {
    const body = encodeBedrockConverseBody(
      request({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: '' },
          { role: 'user', content: 'b' },
        ],
      }),
      noRemoteImages,
    );
    expect(body.messages).toEqual([{ role: 'user', content: [{ text: 'a' }, { text: 'b' }] }]);
  });

  it('sends a JSON schema output format as outputConfig.textFormat, the schema as a JSON string', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, additionalProperties: false };
    const body = encodeBedrockConverseBody(
      request({ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, description: 'd' } } }),
      noRemoteImages,
    );
    // An object that does not say is closed (Claude takes closed objects only).
    const open = encodeBedrockConverseBody(
      request({
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } },
      }),
      noRemoteImages,
    );
    expect(open.outputConfig?.textFormat.structure.jsonSchema.schema).toBe(
      '{"type":"object","additionalProperties":false}',
    );
    expect(body.outputConfig).toEqual({
      textFormat: {
        type: 'json_schema',
        structure: { jsonSchema: { schema: JSON.stringify(schema), name: 'answer', description: 'd' } },
      },
    });
  });

  it.each([
    [{ n: 2 }, 'n'],
    [{ temperature: 1.5 }, 'temperature'],
    [{ response_format: { type: 'json_object' as const } }, 'response_format'],
    [{ presence_penalty: 0.5 }, 'presence_penalty'],
    [
      {
        messages: [
          {
            role: 'user' as const,
            content: [{ type: 'image_url' as const, image_url: { url: 'https://example.com/cat.png' } }],
          },
        ],
      },
      'messages[0].content[0].image_url.url',
    ],
    [
      {
        messages: [
          {
            role: 'user' as const,
            content: [{ type: 'image_url' as const, image_url: { url: `data:image/bmp;base64,${pixel}` } }],
          },
        ],
      },
      'messages[0].content[0].image_url',
    ],
    [
      { messages: [{ role: 'user' as const, content: [{ type: 'input_audio' as const, input_audio: {} }] }] },
      'messages[0].content[0]',
    ],
    [
      {
        messages: [
          { role: 'user' as const, content: 'x' },
          {
            role: 'assistant' as const,
            tool_calls: [{ id: 'c', type: 'function' as const, function: { name: 'f', arguments: '{bad' } }],
          },
        ],
      },
      'messages[1].tool_calls[0].function.arguments',
    ],
    [{ messages: [{ role: 'function' as const, name: 'f', content: 'x' }] }, 'messages[0]'],
    [
      {
        tool_choice: 'none' as const,
        tools: [weatherTool],
        messages: [
          { role: 'user' as const, content: 'x' },
          {
            role: 'assistant' as const,
            tool_calls: [{ id: 'c', type: 'function' as const, function: { name: 'get_weather', arguments: '{}' } }],
          },
          { role: 'tool' as const, tool_call_id: 'c', content: 'ok' },
        ],
      },
      'tool_choice',
    ],
  ])('refuses what Converse cannot honour with a 400 naming the parameter (%#)', (fields, param) => {
    const error = refusal(fields as Partial<ChatCompletionRequest>);
    expect(error.code).toBe('invalid_request_error');
    expect(error.param).toBe(param);
  });
});

describe('encodeBedrockConverseBody with a reasoning effort', () => {
  const claude = { id: 'anthropic.claude-sonnet-4-5-20250929-v1:0', maxOutputTokens: 64_000 };

  function refusedParam(
    fields: Partial<ChatCompletionRequest>,
    model: { id: string; maxOutputTokens: number | undefined },
  ): string | null {
    try {
      encodeBedrockConverseBody(request(fields), noRemoteImages, model);
    } catch (error) {
      if (error instanceof GatewayError) return error.param;
      throw error;
    }
    return 'accepted';
  }

  it.each([
    ['low', 1_024],
    ['medium', 8_192],
    ['high', 24_576],
  ] as const)(
    "sends Claude's thinking for %s in additionalModelRequestFields with a %i-token budget and a max_tokens above it",
    (effort, budget) => {
      const body = encodeBedrockConverseBody(request({ reasoning_effort: effort }), noRemoteImages, claude);
      expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: budget } });
      expect(body.inferenceConfig).toEqual({ maxTokens: 64_000 });
    },
  );

  it('sends no thinking for none, and keeps the client’s cap (cross-region ids are Claude too)', () => {
    expect(
      encodeBedrockConverseBody(request({ reasoning_effort: 'none' }), noRemoteImages, claude)
        .additionalModelRequestFields,
    ).toBeUndefined();
    const body = encodeBedrockConverseBody(request({ reasoning_effort: 'high', max_tokens: 3_000 }), noRemoteImages, {
      id: 'us.anthropic.claude-opus-4-1-20250805-v1:0',
      maxOutputTokens: undefined,
    });
    expect(body).toMatchObject({
      inferenceConfig: { maxTokens: 3_000 },
      additionalModelRequestFields: { thinking: { budget_tokens: 2_999 } },
    });
  });

  it('refuses an effort for models other than Claude, for Claude models that cannot think, and with a temperature other than 1', () => {
    expect(refusedParam({ reasoning_effort: 'low' }, { id: 'amazon.nova-pro-v1:0', maxOutputTokens: undefined })).toBe(
      'reasoning_effort',
    );
    expect(
      refusedParam(
        { reasoning_effort: 'low' },
        { id: 'anthropic.claude-3-5-sonnet-20240620-v1:0', maxOutputTokens: 8_192 },
      ),
    ).toBe('reasoning_effort');
    expect(refusedParam({ reasoning_effort: 'low', temperature: 0.5 }, claude)).toBe('temperature');
    expect(refusedParam({ reasoning_effort: 'low' }, claude)).toBe('accepted');
  });
});
