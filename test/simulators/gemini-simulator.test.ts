// The Gemini simulator must refuse what the Gemini API refuses, or a translation bug in the gateway would pass unseen.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGeminiSimulator, type GeminiSimulator } from './gemini-simulator.js';
import { thoughtSignatureFor } from './gemini-simulator-reply.js';

const apiKey = 'AIza-simulator-test';
let simulator: GeminiSimulator;

beforeAll(async () => {
  simulator = await startGeminiSimulator({ apiKey });
});

afterAll(async () => {
  await simulator.close();
});

async function post(path: string, body: unknown, key = apiKey) {
  const response = await request(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

const userTurn = { role: 'user', parts: [{ text: 'weather in Paris' }] };
const callTurn = (signature?: string) => ({
  role: 'model',
  parts: [
    {
      functionCall: { name: 'get_weather', args: { city: 'Paris' } },
      ...(signature ? { thoughtSignature: signature } : {}),
    },
  ],
});
const responseTurn = {
  role: 'user',
  parts: [{ functionResponse: { name: 'get_weather', response: { content: 'sunny' } } }],
};

describe('Gemini simulator validation', () => {
  it.each([
    ['a snake_case field', { contents: [userTurn], generation_config: {} }, 'Unknown name "generation_config"'],
    [
      'an unknown generationConfig field',
      { contents: [userTurn], generationConfig: { max_tokens: 5 } },
      'Unknown name "max_tokens"',
    ],
    ['the assistant role', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'valid role'],
    [
      'inline image data that is not the stated image',
      {
        contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'R0lGODlhAQABAAAAACw=' } }] }],
      },
      'Unable to process input image',
    ],
    [
      'inline image data that is not base64',
      { contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'not base64!' } }] }] },
      'Base64 decoding failed',
    ],
    [
      'a part with two data fields',
      { contents: [{ role: 'user', parts: [{ text: 'x', inlineData: { mimeType: 'image/png', data: 'AA' } }] }] },
      'exactly one data field',
    ],
    [
      'a functionResponse without a functionCall before it',
      { contents: [userTurn, responseTurn] },
      'number of function response parts',
    ],
    [
      'a functionCall args array',
      { contents: [userTurn, { role: 'model', parts: [{ functionCall: { name: 'f', args: [1] } }] }] },
      'args must be an object',
    ],
  ])('refuses %s with 400 INVALID_ARGUMENT', async (_name, body, message) => {
    const answer = await post('/models/gemini-sim:generateContent', body);
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    expect((answer.json() as { error: { message: string } }).error.message).toContain(message);
  });

  it('answers a bad key with 400 API_KEY_INVALID, as Google does', async () => {
    const answer = await post('/models/gemini-sim:generateContent', { contents: [userTurn] }, 'wrong');
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('API_KEY_INVALID');
  });

  it('requires the thought signature back on a thinking model’s replayed function call', async () => {
    const path = '/models/gemini-thinking-sim:generateContent';
    expect((await post(path, { contents: [userTurn, callTurn(), responseTurn] })).text).toContain('thought_signature');
    expect(
      (await post(path, { contents: [userTurn, callTurn(thoughtSignatureFor('get_weather')), responseTurn] })).status,
    ).toBe(200);
  });
});

describe('Gemini simulator answers', () => {
  it('calls the declared functions with a signature on thinking models, then echoes the function response', async () => {
    const tools = [{ functionDeclarations: [{ name: 'get_weather' }] }];
    const first = (await post('/models/gemini-thinking-sim:generateContent', { contents: [userTurn], tools })).json();
    expect(first).toMatchObject({
      candidates: [
        {
          content: {
            parts: [
              {
                functionCall: { name: 'get_weather', args: { query: 'weather in Paris' } },
                thoughtSignature: thoughtSignatureFor('get_weather'),
              },
            ],
          },
        },
      ],
    });
    const second = (
      await post('/models/gemini-sim:generateContent', { contents: [userTurn, callTurn(), responseTurn], tools })
    ).json();
    expect(second).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'Tool results: sunny' }] }, finishReason: 'STOP' }],
    });
  });

  it('streams SSE data events with the finish reason and full usage on the last one', async () => {
    const answer = await post('/models/gemini-cache-sim:streamGenerateContent?alt=sse', { contents: [userTurn] });
    const events = answer.text
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((event) => JSON.parse(event.replace(/^data: /, '')) as Record<string, unknown>);
    expect(events.length).toBeGreaterThan(1);
    expect(events.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { cachedContentTokenCount: expect.any(Number) },
    });
  });

  it('embeds each text of a batch, with no usage in the answer', async () => {
    const body = {
      requests: ['a', 'bb'].map((text) => ({
        model: 'models/embed-sim',
        content: { parts: [{ text }] },
        outputDimensionality: 4,
      })),
    };
    const answer = (await post('/models/embed-sim:batchEmbedContents', body)).json() as {
      embeddings: Array<{ values: number[] }>;
      usage?: unknown;
    };
    expect(answer.embeddings.map((embedding) => embedding.values.length)).toEqual([4, 4]);
    expect(answer.usage).toBeUndefined();
  });
});
