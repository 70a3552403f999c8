import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import type { VendorCall } from '../chat-adapter.js';
import { encodeGeminiRequest } from './encode-gemini-request.js';
import { encodeGeminiToolCallId, readGeminiThoughtSignature } from './gemini-tool-call-id.js';

function callFor(stream: boolean): VendorCall {
  return {
    channel: { baseUrl: 'https://gemini.example.test/v1beta', secret: 'AIza-secret', settings: {} },
    upstreamModelId: 'gemini-2.5-pro',
    publicModelId: 'gemini-pro',
    maxOutputTokens: 65536,
    stream,
    clock: () => 1_700_000_000_000,
  };
}

function encode(request: Partial<ChatCompletionRequest>, stream = false) {
  const encoded = encodeGeminiRequest({ model: 'gemini-pro', messages: [{ role: 'user', content: 'hi' }], ...request }, callFor(stream));
  return { url: encoded.url, headers: encoded.headers, body: JSON.parse(encoded.body) as Record<string, unknown> };
}

function refusedParam(action: () => unknown): string | null {
  try {
    action();
  } catch (error) {
    if (error instanceof GatewayError && error.status === 400) return error.param;
    throw error;
  }
  throw new Error('expected a 400');
}

const signature = 'c2lnOmdldF93ZWF0aGVyOvv/+A==';

describe('encodeGeminiRequest', () => {
  it('maps system, images, a tool round trip with a thought signature, tools and generation config', () => {
    const encoded = encode({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/AA==' } }, { type: 'image_url', image_url: { url: 'https://images.example.test/street.webp?size=large' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: encodeGeminiToolCallId('call_r1_0_0', signature), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }, { id: 'call_r1_0_1', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: encodeGeminiToolCallId('call_r1_0_0', signature), content: '{"temperature":21}' },
        { role: 'tool', tool_call_id: 'call_r1_0_1', content: 'noon' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }, { type: 'function', function: { name: 'get_time' } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0.4,
      top_p: 0.8,
      max_completion_tokens: 500,
      stop: ['END'],
      n: 2,
      seed: 3,
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema: { type: 'object' } } },
    });
    expect(encoded).toMatchInlineSnapshot(`
      {
        "body": {
          "contents": [
            {
              "parts": [
                {
                  "text": "Weather here?",
                },
                {
                  "inlineData": {
                    "data": "/9j/AA==",
                    "mimeType": "image/jpeg",
                  },
                },
                {
                  "fileData": {
                    "fileUri": "https://images.example.test/street.webp?size=large",
                    "mimeType": "image/webp",
                  },
                },
              ],
              "role": "user",
            },
            {
              "parts": [
                {
                  "functionCall": {
                    "args": {
                      "city": "Paris",
                    },
                    "name": "get_weather",
                  },
                  "thoughtSignature": "c2lnOmdldF93ZWF0aGVyOvv/+A==",
                },
                {
                  "functionCall": {
                    "args": {},
                    "name": "get_time",
                  },
                },
              ],
              "role": "model",
            },
            {
              "parts": [
                {
                  "functionResponse": {
                    "name": "get_weather",
                    "response": {
                      "temperature": 21,
                    },
                  },
                },
                {
                  "functionResponse": {
                    "name": "get_time",
                    "response": {
                      "content": "noon",
                    },
                  },
                },
              ],
              "role": "user",
            },
          ],
          "generationConfig": {
            "candidateCount": 2,
            "maxOutputTokens": 500,
            "responseJsonSchema": {
              "type": "object",
            },
            "responseMimeType": "application/json",
            "seed": 3,
            "stopSequences": [
              "END",
            ],
            "temperature": 0.4,
            "topP": 0.8,
          },
          "systemInstruction": {
            "parts": [
              {
                "text": "Be brief.",
              },
            ],
          },
          "toolConfig": {
            "functionCallingConfig": {
              "allowedFunctionNames": [
                "get_weather",
              ],
              "mode": "ANY",
            },
          },
          "tools": [
            {
              "functionDeclarations": [
                {
                  "description": "Weather",
                  "name": "get_weather",
                  "parametersJsonSchema": {
                    "properties": {
                      "city": {
                        "type": "string",
                      },
                    },
                    "type": "object",
                  },
                },
                {
                  "name": "get_time",
                },
              ],
            },
          ],
        },
        "headers": {
          "content-type": "application/json",
          "x-goog-api-key": "AIza-secret",
        },
        "url": "https://gemini.example.test/v1beta/models/gemini-2.5-pro:generateContent",
      }
    `);
  });

  it('streams through :streamGenerateContent?alt=sse and maps tool_choice modes', () => {
    const tools: ChatCompletionRequest['tools'] = [{ type: 'function', function: { name: 'f' } }];
    expect(encode({}, true).url).toBe('https://gemini.example.test/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    expect(encode({ tools, tool_choice: 'auto' }).body.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(encode({ tools, tool_choice: 'none' }).body.toolConfig).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(encode({ tools, tool_choice: 'required' }).body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(encode({ response_format: { type: 'json_object' } }).body.generationConfig).toEqual({ responseMimeType: 'application/json' });
  });

  it('refuses with a 400 what Gemini cannot honour', () => {
    expect(refusedParam(() => encode({ n: 2 }, true))).toBe('n');
    expect(refusedParam(() => encode({ tools: [{ type: 'function', function: { name: 'f' } }], parallel_tool_calls: false }))).toBe('parallel_tool_calls');
    expect(refusedParam(() => encode({ logprobs: true }))).toBe('logprobs');
    expect(refusedParam(() => encode({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://images.example.test/photo' } }] }] }))).toBe('messages[0].content[0]');
    expect(refusedParam(() => encode({ messages: [{ role: 'tool', tool_call_id: 'unknown', content: 'x' }] }))).toBe('messages[0].tool_call_id');
  });
});

describe('Gemini tool call ids', () => {
  it('carry a thought signature through an id of URL-safe characters and restore it exactly', () => {
    const id = encodeGeminiToolCallId('call_r1_0_0', signature);
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(readGeminiThoughtSignature(id)).toBe(signature);
    expect(readGeminiThoughtSignature('call_plain')).toBeUndefined();
  });
});
