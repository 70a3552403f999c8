// The Vercel AI SDK (`ai` 6) through the gateway: generateText, streamText (text, and tools with a follow-up step) and
// structured output, with @ai-sdk/openai's chat and responses models and @ai-sdk/anthropic pointed at the gateway.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import {
  embedMany,
  generateObject,
  generateText,
  Output,
  stepCountIs,
  streamObject,
  streamText,
  tool,
  type LanguageModel,
} from 'ai';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  thirdPartyClaudeModel,
  thirdPartyEmbeddingModel,
  thirdPartyModel,
  type ThirdPartyClientContext,
  type ThirdPartyClientScenario,
} from './third-party-client-context.js';

/** The AI SDK providers under contract, each a model factory over the gateway. */
const providers: Array<{ name: string; model(context: ThirdPartyClientContext): LanguageModel }> = [
  {
    name: '@ai-sdk/openai chat',
    model: (context) =>
      createOpenAI({ apiKey: context.apiKey, baseURL: context.gateway.baseURL }).chat(thirdPartyModel),
  },
  {
    name: '@ai-sdk/openai responses',
    model: (context) =>
      createOpenAI({ apiKey: context.apiKey, baseURL: context.gateway.baseURL }).responses(thirdPartyModel),
  },
  {
    name: '@ai-sdk/anthropic',
    model: (context) =>
      createAnthropic({ apiKey: context.apiKey, baseURL: context.gateway.baseURL })(thirdPartyClaudeModel),
  },
];

/** What every simulator answers for JSON output: the last user text under `echo`. */
const echoSchema = z.object({ echo: z.string() });

/** The weather tool every simulator calls with `{query: <the user's text>}`; its result must reach the final answer. */
function weatherTool(calls: string[]) {
  return tool({
    description: 'Weather for a city',
    inputSchema: z.object({ query: z.string() }),
    execute: ({ query }) => {
      calls.push(query);
      return Promise.resolve(`sunny-${calls.length}`);
    },
  });
}

function scenariosOf(provider: (typeof providers)[number]): ThirdPartyClientScenario[] {
  return [
    {
      name: `${provider.name}: generateText`,
      async run(context) {
        const result = await generateText({ model: provider.model(context), prompt: 'hello there', maxRetries: 0 });
        expect(result.text).toBe('Echo: hello there');
        expect(result.finishReason).toBe('stop');
        expect(result.usage.inputTokens).toBeGreaterThan(0);
        expect(result.usage.outputTokens).toBeGreaterThan(0);
      },
    },
    {
      name: `${provider.name}: streamText`,
      async run(context) {
        const result = streamText({ model: provider.model(context), prompt: 'stream these words', maxRetries: 0 });
        const pieces: string[] = [];
        for await (const piece of result.textStream) pieces.push(piece);
        expect(pieces.join('')).toBe('Echo: stream these words');
        expect(await result.finishReason).toBe('stop');
      },
    },
    {
      name: `${provider.name}: generateText with a tool and a follow-up step`,
      async run(context) {
        const calls: string[] = [];
        const result = await generateText({
          model: provider.model(context),
          prompt: 'weather in Paris',
          tools: { get_weather: weatherTool(calls) },
          stopWhen: stepCountIs(3),
          maxRetries: 0,
        });
        expect(calls).toEqual(['weather in Paris']);
        expect(result.steps[0]?.finishReason).toBe('tool-calls');
        expect(result.text).toContain('sunny-1');
        expect(result.finishReason).toBe('stop');
      },
    },
    {
      name: `${provider.name}: streamText with a tool and a follow-up step`,
      async run(context) {
        const calls: string[] = [];
        const result = streamText({
          model: provider.model(context),
          prompt: 'weather in Lyon',
          tools: { get_weather: weatherTool(calls) },
          stopWhen: stepCountIs(3),
          maxRetries: 0,
        });
        expect(await result.text).toContain('sunny-1');
        expect(calls).toEqual(['weather in Lyon']);
        expect((await result.steps).length).toBe(2);
      },
    },
    {
      name: `${provider.name}: generateText with Output.object`,
      async run(context) {
        const result = await generateText({
          model: provider.model(context),
          prompt: 'answer in JSON please',
          output: Output.object({ schema: echoSchema }),
          maxRetries: 0,
        });
        expect(result.output).toEqual({ echo: 'answer in JSON please' });
      },
    },
    {
      name: `${provider.name}: streamObject`,
      async run(context) {
        const result = streamObject({
          model: provider.model(context),
          prompt: 'a streamed object',
          schema: echoSchema,
          maxRetries: 0,
        });
        const partials: unknown[] = [];
        for await (const partial of result.partialObjectStream) partials.push(partial);
        expect(partials.length).toBeGreaterThan(0);
        expect(await result.object).toEqual({ echo: 'a streamed object' });
      },
    },
    {
      name: `${provider.name}: generateObject`,
      async run(context) {
        const result = await generateObject({
          model: provider.model(context),
          prompt: 'an object please',
          schema: echoSchema,
          maxRetries: 0,
        });
        expect(result.object).toEqual({ echo: 'an object please' });
      },
    },
  ];
}

/** @ai-sdk/anthropic's other structured-output mode: a forced `json` tool, which every simulator calls with `{query}`. */
const anthropicJsonToolScenario: ThirdPartyClientScenario = {
  name: '@ai-sdk/anthropic: generateObject with structuredOutputMode jsonTool',
  async run(context) {
    const result = await generateObject({
      model: createAnthropic({ apiKey: context.apiKey, baseURL: context.gateway.baseURL })(thirdPartyClaudeModel),
      prompt: 'an object by tool',
      schema: z.object({ query: z.string() }),
      providerOptions: { anthropic: { structuredOutputMode: 'jsonTool' } },
      maxRetries: 0,
    });
    expect(result.object).toEqual({ query: 'an object by tool' });
  },
};

/**
 * The Responses model with `store: false` and `include: ['reasoning.encrypted_content']`: the tool call's vendor
 * artefact (Gemini's thoughtSignature) comes back sealed in a reasoning item, which the SDK sends back with the call.
 */
const responsesEncryptedReasoningScenario: ThirdPartyClientScenario = {
  name: '@ai-sdk/openai responses: a tool and a follow-up step with store false and encrypted reasoning',
  async run(context) {
    const calls: string[] = [];
    const result = await generateText({
      model: createOpenAI({ apiKey: context.apiKey, baseURL: context.gateway.baseURL }).responses(thirdPartyModel),
      prompt: 'weather in Nice',
      tools: { get_weather: weatherTool(calls) },
      stopWhen: stepCountIs(3),
      providerOptions: { openai: { store: false, include: ['reasoning.encrypted_content'] } },
      maxRetries: 0,
    });
    expect(calls).toEqual(['weather in Nice']);
    expect(result.text).toContain('sunny-1');
  },
};

/** Embeddings through @ai-sdk/openai's embedding model: one vector per value, in order. */
const openAiEmbeddingScenario: ThirdPartyClientScenario = {
  name: '@ai-sdk/openai embedding: embedMany',
  async run(context) {
    const openai = createOpenAI({ apiKey: context.apiKey, baseURL: context.gateway.baseURL });
    const result = await embedMany({
      model: openai.embedding(thirdPartyEmbeddingModel),
      values: ['first text', 'second text'],
      maxRetries: 0,
    });
    expect(result.embeddings).toHaveLength(2);
    for (const vector of result.embeddings) {
      expect(vector.length).toBeGreaterThan(0);
      expect(vector.every((value) => Number.isFinite(value))).toBe(true);
    }
    expect(result.embeddings[0]).not.toEqual(result.embeddings[1]);
  },
};

/** Every AI SDK scenario, provider by provider. @ai-sdk/google is absent: the gateway does not serve Gemini's own API. */
export const aiSdkClientScenarios: ThirdPartyClientScenario[] = [
  ...providers.flatMap(scenariosOf),
  anthropicJsonToolScenario,
  responsesEncryptedReasoningScenario,
  openAiEmbeddingScenario,
];
