// Gemini's own API through the gateway, driven by the official @google/genai SDK against every vendor target (its
// simulator behind a billed gateway): generateContent, its stream, function calling with a follow-up turn (Gemini's
// thoughtSignature back to a Gemini channel unchanged), structured output, countTokens, embeddings, the model list,
// Google-shaped errors, and usage the SDK sees equal to the usage log's row (and its cost equal to chat completions').
import { ApiError, GoogleGenAI, HarmBlockThreshold, HarmCategory, type Content } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractTargets } from './contract-targets.js';
import {
  geminiNativeCacheModel,
  geminiNativeEmbeddingModel,
  geminiNativeModel,
  geminiNativeOverloadedModel,
  startGeminiNativeContext,
  type GeminiNativeContext,
} from './gemini-native/gemini-native-context.js';

/** Targets whose vendor has no embeddings API behind its adapter: the gateway answers 503 UNAVAILABLE there. */
const noEmbeddings = new Set(['anthropic (2023-06-01)', 'anthropic (2026-10-21)', 'bedrock', 'vertex (claude)']);

const weatherTool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Weather for a city',
      parametersJsonSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  ],
};

/** The SDK error of a call that must fail. */
async function apiErrorOf(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

/** The JSON body of Google's error the SDK puts in its message. */
function googleErrorOf(error: ApiError): { code: number; status: string; message: string } {
  return (JSON.parse(error.message) as { error: { code: number; status: string; message: string } }).error;
}

for (const target of contractTargets) {
  describe(`@google/genai against ${target.name}`, () => {
    let context: GeminiNativeContext;
    let ai: GoogleGenAI;
    beforeAll(async () => {
      context = await startGeminiNativeContext(target);
      ai = new GoogleGenAI({ apiKey: context.apiKey, httpOptions: { baseUrl: context.gateway.url } });
    });
    afterAll(async () => {
      await context.close();
    });

    it('generateContent answers text with a STOP finish and usage', async () => {
      const response = await ai.models.generateContent({ model: geminiNativeModel, contents: 'hello there' });
      expect(response.text).toBe('Echo: hello there');
      expect(response.candidates?.[0]?.finishReason).toBe('STOP');
      expect(response.modelVersion).toBe(geminiNativeModel);
      const usage = response.usageMetadata;
      expect(usage?.promptTokenCount).toBeGreaterThan(0);
      expect(usage?.candidatesTokenCount).toBeGreaterThan(0);
      expect(usage?.totalTokenCount).toBe(
        (usage?.promptTokenCount ?? 0) + (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0),
      );
    });

    it('generateContentStream streams the text, the finish and usage on the last chunk', async () => {
      const stream = await ai.models.generateContentStream({
        model: geminiNativeModel,
        contents: 'stream these words',
      });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe('Echo: stream these words');
      expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
      expect(chunks.at(-1)?.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
    });

    it('a chat keeps a streamed turn in its history (every chunk has content)', async () => {
      const chat = ai.chats.create({ model: geminiNativeModel });
      for await (const chunk of await chat.sendMessageStream({ message: 'first turn' })) expect(chunk).toBeDefined();
      // The SDK keeps each chunk's content as a model entry; it keeps none when any chunk has no part.
      const [userTurn, ...modelTurns] = chat.getHistory();
      expect(userTurn?.role).toBe('user');
      expect(modelTurns.length).toBeGreaterThan(0);
      expect(modelTurns.every((content) => content.role === 'model')).toBe(true);
      expect(
        modelTurns
          .flatMap((content) => content.parts ?? [])
          .map((part) => part.text)
          .join(''),
      ).toBe('Echo: first turn');
      const second = await chat.sendMessage({ message: 'second turn' });
      expect(second.text).toBe('Echo: second turn');
    });

    it('function calling: the call, then a functionResponse turn answered with its result', async () => {
      const first = await ai.models.generateContent({
        model: geminiNativeModel,
        contents: 'weather in Paris',
        config: { tools: [weatherTool] },
      });
      const call = first.functionCalls?.[0];
      expect(call?.name).toBe('get_weather');
      expect(call?.args).toEqual({ query: 'weather in Paris' });
      const modelTurn = first.candidates?.[0]?.content as Content;
      const second = await ai.models.generateContent({
        model: geminiNativeModel,
        contents: [
          { role: 'user', parts: [{ text: 'weather in Paris' }] },
          modelTurn,
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: 'sunny-1' } } }] },
        ],
        config: { tools: [weatherTool] },
      });
      expect(second.text).toContain('sunny-1');
      if (target.protocol === 'gemini') {
        // Gemini's signature reached the client on the part and went back to Gemini unchanged on the replayed call.
        const signature = modelTurn.parts?.find((part) => part.functionCall)?.thoughtSignature;
        expect(signature).toBeTruthy();
        const sent = context.upstream.requests.at(-1)?.body as { contents: Content[] };
        const replayed = sent.contents.flatMap((content) => content.parts ?? []).find((part) => part.functionCall);
        expect(replayed?.thoughtSignature).toBe(signature);
      }
    });

    it('structured output: responseJsonSchema gives JSON of that schema', async () => {
      const response = await ai.models.generateContent({
        model: geminiNativeModel,
        contents: 'answer in JSON please',
        config: {
          responseMimeType: 'application/json',
          responseJsonSchema: {
            type: 'object',
            properties: { echo: { type: 'string' } },
            required: ['echo'],
            additionalProperties: false,
          },
        },
      });
      expect(JSON.parse(response.text ?? '')).toEqual({ echo: 'answer in JSON please' });
    });

    const safetySettings = [
      { category: HarmCategory.HARM_CATEGORY_HARASSMENT, threshold: HarmBlockThreshold.BLOCK_ONLY_HIGH },
    ];
    if (target.protocol === 'gemini') {
      it('safetySettings reach the Gemini channel as sent', async () => {
        const response = await ai.models.generateContent({
          model: geminiNativeModel,
          contents: 'safe words',
          config: { safetySettings },
        });
        expect(response.text).toBe('Echo: safe words');
        const sent = context.upstream.requests.at(-1)?.body as { safetySettings?: unknown };
        expect(sent.safetySettings).toEqual(safetySettings);
      });
    } else {
      it('safetySettings, which only Gemini applies, are a 400 INVALID_ARGUMENT naming them, before any vendor call', async () => {
        const before = context.upstream.requests.length;
        const error = await apiErrorOf(
          ai.models.generateContent({ model: geminiNativeModel, contents: 'safe words', config: { safetySettings } }),
        );
        expect(error.status).toBe(400);
        expect(googleErrorOf(error)).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
        expect(googleErrorOf(error).message).toContain('safetySettings');
        expect(context.upstream.requests.length).toBe(before);
      });
    }

    if (target.protocol === 'gemini') {
      it('a thinkingBudget reaches a Gemini channel exactly, not rounded to an effort step', async () => {
        const response = await ai.models.generateContent({
          model: geminiNativeModel,
          contents: 'think a little',
          config: { thinkingConfig: { thinkingBudget: 2048 } },
        });
        expect(response.text).toBe('Echo: think a little');
        const sent = context.upstream.requests.at(-1)?.body as { generationConfig?: { thinkingConfig?: unknown } };
        expect(sent.generationConfig?.thinkingConfig).toEqual({ thinkingBudget: 2048 });
      });
    }

    it('countTokens counts without calling the vendor', async () => {
      const before = context.upstream.requests.length;
      const counted = await ai.models.countTokens({
        model: geminiNativeModel,
        contents: 'count these five words please',
      });
      expect(counted.totalTokens).toBeGreaterThan(0);
      expect(context.upstream.requests.length).toBe(before);
    });

    if (noEmbeddings.has(target.name)) {
      it('embedContent: the vendor has no embeddings, answered 503 UNAVAILABLE in Google shape', async () => {
        const error = await apiErrorOf(ai.models.embedContent({ model: geminiNativeEmbeddingModel, contents: 'hi' }));
        expect(error.status).toBe(503);
        expect(googleErrorOf(error).status).toBe('UNAVAILABLE');
      });
    } else {
      it('embedContent gives one vector per content', async () => {
        const response = await ai.models.embedContent({
          model: geminiNativeEmbeddingModel,
          contents: ['first text', 'second text'],
        });
        expect(response.embeddings).toHaveLength(2);
        expect(response.embeddings?.[0]?.values?.length).toBeGreaterThan(0);
        expect(response.embeddings?.[0]?.values).not.toEqual(response.embeddings?.[1]?.values);
      });
    }

    it('models.list and models.get give the key’s models in Gemini’s Model shape', async () => {
      const names: string[] = [];
      for await (const model of await ai.models.list()) names.push(model.name ?? '');
      expect(names).toContain(`models/${geminiNativeModel}`);
      expect(names).toContain(`models/${geminiNativeEmbeddingModel}`);
      const model = await ai.models.get({ model: geminiNativeModel });
      expect(model.name).toBe(`models/${geminiNativeModel}`);
      expect(model.supportedActions).toEqual(expect.arrayContaining(['generateContent', 'countTokens']));
    });

    it('an unknown model is 404 NOT_FOUND and a bad key 401 UNAUTHENTICATED, in Google’s error shape', async () => {
      const unknown = await apiErrorOf(ai.models.generateContent({ model: 'no-such-model', contents: 'hi' }));
      expect(unknown.status).toBe(404);
      expect(googleErrorOf(unknown)).toMatchObject({ code: 404, status: 'NOT_FOUND' });
      const stranger = new GoogleGenAI({ apiKey: 'sk-not-a-key', httpOptions: { baseUrl: context.gateway.url } });
      const badKey = await apiErrorOf(stranger.models.generateContent({ model: geminiNativeModel, contents: 'hi' }));
      expect(badKey.status).toBe(401);
      expect(googleErrorOf(badKey)).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
    });

    it('a key without balance is 429 RESOURCE_EXHAUSTED, an overloaded vendor 503 UNAVAILABLE, in Google’s shape', async () => {
      const broke = new GoogleGenAI({ apiKey: context.unfundedApiKey, httpOptions: { baseUrl: context.gateway.url } });
      const refused = await apiErrorOf(broke.models.generateContent({ model: geminiNativeModel, contents: 'hi' }));
      expect(refused.status).toBe(429);
      expect(googleErrorOf(refused)).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
      const overloaded = await apiErrorOf(
        ai.models.generateContentStream({ model: geminiNativeOverloadedModel, contents: 'hi' }),
      );
      expect(overloaded.status).toBe(503);
      expect(googleErrorOf(overloaded)).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
    });

    it('the usage the SDK sees is the usage log’s row, and it costs what the same chat completion costs', async () => {
      const response = await ai.models.generateContent({ model: geminiNativeModel, contents: 'usage check please' });
      const geminiRow = (await context.usageRows()).find(
        (row) => row.requestId === response.sdkHttpResponse?.headers?.['x-request-id'],
      );
      const usage = response.usageMetadata;
      expect(geminiRow?.promptTokens).toBe(usage?.promptTokenCount);
      expect(geminiRow?.completionTokens).toBe((usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0));
      expect(geminiRow?.cachedTokens).toBe(usage?.cachedContentTokenCount ?? 0);
      const chat = await context.gateway
        .client(context.apiKey)
        .chat.completions.create({
          model: geminiNativeModel,
          messages: [{ role: 'user', content: 'usage check please' }],
        })
        .withResponse();
      const chatRow = (await context.usageRows()).find(
        (row) => row.requestId === chat.response.headers.get('x-request-id'),
      );
      expect(geminiRow?.cost).toBeGreaterThan(0);
      expect(geminiRow?.cost).toBe(chatRow?.cost);
    });

    it('prompt-cache reads show as cachedContentTokenCount, and the usage log bills the same cached tokens', async () => {
      const response = await ai.models.generateContent({
        model: geminiNativeCacheModel,
        contents: 'cached question',
        config: { systemInstruction: 'a long shared system prompt worth caching' },
      });
      const usage = response.usageMetadata;
      expect(usage?.cachedContentTokenCount).toBeGreaterThan(0);
      expect(usage?.cachedContentTokenCount).toBeLessThan(usage?.promptTokenCount ?? 0);
      const requestId = response.sdkHttpResponse?.headers?.['x-request-id'];
      const row = (await context.usageRows()).find((candidate) => candidate.requestId === requestId);
      expect(row?.cachedTokens).toBe(usage?.cachedContentTokenCount);
      expect(row?.promptTokens).toBe(usage?.promptTokenCount);
    });

    it('raw HTTP: ?key= authenticates, and a stream without alt=sse is one JSON array of chunks', async () => {
      const response = await fetch(
        `${context.gateway.url}/v1beta/models/${geminiNativeModel}:streamGenerateContent?key=${context.apiKey}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'an array please' }] }] }),
        },
      );
      expect(response.status).toBe(200);
      const chunks = JSON.parse(await response.text()) as Array<{
        candidates: Array<{ content: { parts: Array<{ text?: string }> }; finishReason?: string }>;
      }>;
      const text = chunks
        .map((chunk) => chunk.candidates[0]?.content.parts.map((part) => part.text ?? '').join(''))
        .join('');
      expect(text).toBe('Echo: an array please');
      expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    });
  });
}

describe('Gemini-native paths the gateway refuses', () => {
  let context: GeminiNativeContext;
  beforeAll(async () => {
    const [first] = contractTargets;
    if (!first) throw new Error('no contract target');
    context = await startGeminiNativeContext(first);
  });
  afterAll(async () => {
    await context.close();
  });

  async function post(path: string, headers: Record<string, string> = { 'x-goog-api-key': context.apiKey }) {
    const response = await fetch(`${context.gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('an unknown method, a tuned model and an unknown /v1beta path are 404 NOT_FOUND in Google’s shape', async () => {
    for (const path of [
      `/v1beta/models/${geminiNativeModel}:predict`,
      '/v1beta/tunedModels/my-tuned:generateContent',
      '/v1beta/cachedContents',
    ]) {
      const answer = await post(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toEqual({
        error: { code: 404, message: expect.any(String) as string, status: 'NOT_FOUND' },
      });
    }
  });

  it('a refused field is 400 INVALID_ARGUMENT naming it', async () => {
    const response = await fetch(`${context.gateway.url}/v1beta/models/${geminiNativeModel}:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': context.apiKey },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { candidateCount: 2 } }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { status: string; message: string } };
    expect(body.error.status).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toContain('candidateCount');
  });

  it('takes a key in the URL on /v1beta only: /v1 paths do not read ?key=', async () => {
    const response = await fetch(`${context.gateway.url}/v1/models?key=${context.apiKey}`);
    expect(response.status).toBe(401);
    const listed = await fetch(`${context.gateway.url}/v1beta/models?key=${context.apiKey}`);
    expect(listed.status).toBe(200);
  });
});
