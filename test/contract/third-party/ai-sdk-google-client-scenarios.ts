// The Vercel AI SDK's Gemini provider (@ai-sdk/google) pointed at the gateway's Gemini-native API (/v1beta):
// generateText, streamText, a tool with a follow-up step (Gemini's thoughtSignature carried by the provider),
// structured output and embeddings, the same calls the other AI SDK providers make.
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { embedMany, generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  thirdPartyEmbeddingModel,
  thirdPartyModel,
  type ThirdPartyClientContext,
  type ThirdPartyClientScenario,
} from './third-party-client-context.js';

/** The provider over the gateway: its base URL is the gateway's /v1beta, the key goes in `x-goog-api-key`. */
function google(context: ThirdPartyClientContext) {
  return createGoogleGenerativeAI({ apiKey: context.apiKey, baseURL: `${context.gateway.url}/v1beta` });
}

/** The weather tool every simulator calls with `{query: <the user's text>}`. */
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

/** The @ai-sdk/google scenarios, run against every vendor target. */
export const aiSdkGoogleClientScenarios: ThirdPartyClientScenario[] = [
  {
    name: '@ai-sdk/google: generateText',
    async run(context) {
      const result = await generateText({
        model: google(context)(thirdPartyModel),
        prompt: 'hello there',
        maxRetries: 0,
      });
      expect(result.text).toBe('Echo: hello there');
      expect(result.finishReason).toBe('stop');
      expect(result.usage.inputTokens).toBeGreaterThan(0);
      expect(result.usage.outputTokens).toBeGreaterThan(0);
    },
  },
  {
    name: '@ai-sdk/google: streamText',
    async run(context) {
      const result = streamText({
        model: google(context)(thirdPartyModel),
        prompt: 'stream these words',
        maxRetries: 0,
      });
      const pieces: string[] = [];
      for await (const piece of result.textStream) pieces.push(piece);
      expect(pieces.join('')).toBe('Echo: stream these words');
      expect(await result.finishReason).toBe('stop');
    },
  },
  {
    name: '@ai-sdk/google: generateText with a tool and a follow-up step',
    async run(context) {
      const calls: string[] = [];
      const result = await generateText({
        model: google(context)(thirdPartyModel),
        prompt: 'weather in Paris',
        tools: { get_weather: weatherTool(calls) },
        stopWhen: stepCountIs(3),
        maxRetries: 0,
      });
      expect(calls).toEqual(['weather in Paris']);
      expect(result.steps[0]?.finishReason).toBe('tool-calls');
      expect(result.text).toContain('sunny-1');
    },
  },
  {
    name: '@ai-sdk/google: streamText with a tool and a follow-up step',
    async run(context) {
      const calls: string[] = [];
      const result = streamText({
        model: google(context)(thirdPartyModel),
        prompt: 'weather in Lyon',
        tools: { get_weather: weatherTool(calls) },
        stopWhen: stepCountIs(3),
        maxRetries: 0,
      });
      expect(await result.text).toContain('sunny-1');
      expect(calls).toEqual(['weather in Lyon']);
    },
  },
  {
    name: '@ai-sdk/google: generateText with Output.object',
    async run(context) {
      const result = await generateText({
        model: google(context)(thirdPartyModel),
        prompt: 'answer in JSON please',
        output: Output.object({ schema: z.object({ echo: z.string() }) }),
        maxRetries: 0,
      });
      expect(result.output).toEqual({ echo: 'answer in JSON please' });
    },
  },
  {
    name: '@ai-sdk/google embedding: embedMany',
    async run(context) {
      const result = await embedMany({
        model: google(context).textEmbeddingModel(thirdPartyEmbeddingModel),
        values: ['first text', 'second text'],
        maxRetries: 0,
      });
      expect(result.embeddings).toHaveLength(2);
      expect(result.embeddings[0]?.length).toBeGreaterThan(0);
    },
  },
];
