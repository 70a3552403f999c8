import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { ChatCompletionRequest } from '../../core/openai-chat-request.js';
import { chatRequestToCanonical } from '../../protocols/openai-chat/chat-request-to-canonical.js';
import type { VendorCall } from '../vendor-adapter.js';
import type { FetchRemoteImage } from '../remote-image/remote-image.js';
import { encodeGeminiRequest } from './encode-gemini-request.js';
import { encodeChatToolCallId } from '../../protocols/openai-chat/chat-tool-call-id.js';

const fetchedPng = 'iVBORw0KGgo=';

function callFor(stream: boolean, fetchRemoteImage?: FetchRemoteImage): VendorCall {
  return {
    channel: { baseUrl: 'https://gemini.example.test/v1beta', secret: 'AIza-secret', settings: {} },
    upstreamModelId: 'gemini-2.5-pro',
    publicModelId: 'gemini-pro',
    maxOutputTokens: 65536,
    stream,
    clock: () => 1_700_000_000_000,
    ...(fetchRemoteImage ? { fetchRemoteImage } : {}),
  };
}

// Answers every image URL with the same small PNG, recording what was asked.
const fetchedUrls: string[] = [];
const fetchPng: FetchRemoteImage = async ({ url }) => {
  fetchedUrls.push(url);
  return { mediaType: 'image/png', base64: fetchedPng };
};

/** `fetchRemoteImage` null: a gateway without an image fetcher. */
async function encode(
  request: Partial<ChatCompletionRequest>,
  stream = false,
  fetchRemoteImage: FetchRemoteImage | null = fetchPng,
) {
  const encoded = await encodeGeminiRequest(
    chatRequestToCanonical({ model: 'gemini-pro', messages: [{ role: 'user', content: 'hi' }], ...request }),
    callFor(stream, fetchRemoteImage ?? undefined),
  );
  return { url: encoded.url, headers: encoded.headers, body: JSON.parse(encoded.body) as Record<string, unknown> };
}

async function refusedParam(action: () => Promise<unknown>): Promise<string | null> {
  try {
    await action();
  } catch (error) {
    if (error instanceof GatewayError && error.status === 400) return error.param;
    throw error;
  }
  throw new Error('expected a 400');
}

const signature = 'c2lnOmdldF93ZWF0aGVyOvv/+A==';

describe('encodeGeminiRequest', () => {
  it('maps system, images, a tool round trip with a thought signature, tools and generation config', async () => {
    const encoded = await encode({
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here?' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/AA==' } },
            { type: 'image_url', image_url: { url: 'https://images.example.test/street.webp?size=large' } },
            { type: 'image_url', image_url: { url: 'https://generativelanguage.googleapis.com/v1beta/files/abc123' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: encodeChatToolCallId('call_r1_0_0', { producer: 'gemini', signature }),
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
            { id: 'call_r1_0_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        {
          role: 'tool',
          tool_call_id: encodeChatToolCallId('call_r1_0_0', { producer: 'gemini', signature }),
          content: '{"temperature":21}',
        },
        { role: 'tool', tool_call_id: 'call_r1_0_1', content: 'noon' },
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
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0.4,
      top_p: 0.8,
      max_completion_tokens: 500,
      stop: ['END'],
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
                  "inlineData": {
                    "data": "iVBORw0KGgo=",
                    "mimeType": "image/png",
                  },
                },
                {
                  "fileData": {
                    "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/abc123",
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

  it('streams through :streamGenerateContent?alt=sse and maps tool_choice modes', async () => {
    const tools: ChatCompletionRequest['tools'] = [{ type: 'function', function: { name: 'f' } }];
    expect((await encode({}, true)).url).toBe(
      'https://gemini.example.test/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect((await encode({ tools, tool_choice: 'auto' })).body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'AUTO' },
    });
    expect((await encode({ tools, tool_choice: 'none' })).body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'NONE' },
    });
    expect((await encode({ tools, tool_choice: 'required' })).body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY' },
    });
    expect((await encode({ response_format: { type: 'json_object' } })).body.generationConfig).toEqual({
      responseMimeType: 'application/json',
    });
  });

  it('sends parallel_tool_calls false as nothing: Gemini has no switch, dispatch keeps the first call instead', async () => {
    const encoded = await encode({
      tools: [{ type: 'function', function: { name: 'f' } }],
      parallel_tool_calls: false,
    });
    expect(encoded.body.tools).toEqual([{ functionDeclarations: [{ name: 'f' }] }]);
    expect(encoded.body.toolConfig).toBeUndefined();
  });

  it('refuses with a 400 what Gemini cannot honour', async () => {
    expect(await refusedParam(() => encode({ n: 2 }, false))).toBe('n');
    expect(await refusedParam(() => encode({ logprobs: true }))).toBe('logprobs');
    expect(
      await refusedParam(() => encode({ messages: [{ role: 'tool', tool_call_id: 'unknown', content: 'x' }] })),
    ).toBe('messages[0].tool_call_id');
  });

  it('fetches each web image URL once and inlines it, keeping Files API URIs as fileData', async () => {
    fetchedUrls.length = 0;
    const street = 'https://images.example.test/street.webp';
    const fileUri = 'https://generativelanguage.googleapis.com/v1beta/files/photo.jpg';
    const image = (url: string) => ({ type: 'image_url' as const, image_url: { url } });
    const encoded = await encode({
      messages: [{ role: 'user', content: [image(street), image(fileUri), image(street)] }],
    });
    expect(fetchedUrls).toEqual([street]);
    const parts = (encoded.body.contents as Array<{ parts: unknown[] }>)[0]?.parts;
    expect(parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: fetchedPng } },
      { fileData: { fileUri, mimeType: 'image/jpeg' } },
      { inlineData: { mimeType: 'image/png', data: fetchedPng } },
    ]);
  });

  it('refuses a web image URL with a 400 naming it when the gateway has no fetcher, or when the fetch fails', async () => {
    const withUrl = {
      messages: [
        {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: 'x' },
            { type: 'image_url' as const, image_url: { url: 'https://images.example.test/photo' } },
          ],
        },
      ],
    };
    expect(await refusedParam(() => encode(withUrl, false, null))).toBe('messages[0].content[1].image_url.url');
    const failing: FetchRemoteImage = async ({ param }) => {
      throw new GatewayError('invalid_request_error', 'The image URL answered with HTTP status 404.', { param });
    };
    expect(await refusedParam(() => encode(withUrl, false, failing))).toBe('messages[0].content[1].image_url.url');
  });
});
