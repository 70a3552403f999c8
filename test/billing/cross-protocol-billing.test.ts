// The same answer costs the same through every client protocol (chat, Responses, Messages), streamed or not, behind
// every vendor: each protocol's usage reaches billing typed, with cache reads and writes at their own prices.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.js';
import { startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.js';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.js';
import { cachedPrompt, cachePrice, expectedCachedPromptCost } from './cache-price-fixture.js';
import { settleEverything, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';

const anthropicSecret = 'sk-ant-billing-upstream';
const geminiSecret = 'AIza-billing-gemini-upstream';
const startingBalance = 10_000_000;

/**
 * Each simulator counts words: the eight-word prompt is 8 input tokens, 4 of them read from the cache, and the answer
 * "Echo: one … eight" is 9 tokens. Anthropic also writes 1 token to the cache, Bedrock 2.
 */
const vendors = [
  { name: 'openai (chat completions channel)', model: 'sim-cached-prompt', cacheWriteTokens: 0 },
  { name: 'openai (Responses API channel)', model: 'bill-openai-responses-cache', cacheWriteTokens: 0 },
  { name: 'anthropic', model: 'bill-anthropic-cache', cacheWriteTokens: 1 },
  { name: 'gemini', model: 'bill-gemini-cache', cacheWriteTokens: 0 },
  { name: 'bedrock', model: 'bill-bedrock-cache', cacheWriteTokens: 2 },
] as const;
const { text: prompt, promptTokens, cachedTokens, completionTokens } = cachedPrompt;
const expectedCost = expectedCachedPromptCost;

let gateway: BillingTestGateway;
let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let bedrock: BedrockSimulator;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: ['sim-cached-prompt'],
    prices: vendors.map((vendor) => cachePrice(vendor.model)),
  });
  anthropic = await startAnthropicSimulator({ apiKey: anthropicSecret });
  gemini = await startGeminiSimulator({ apiKey: geminiSecret });
  bedrock = await startBedrockSimulator();
  await gateway.createChannel({
    protocol: 'openai',
    baseUrl: gateway.simulator.url,
    secret: 'upstream',
    models: { 'bill-openai-responses-cache': 'sim-cached-prompt' },
    settings: { responsesApi: 'true' },
  });
  await gateway.createChannel({
    protocol: 'anthropic',
    baseUrl: anthropic.url,
    secret: anthropicSecret,
    models: { 'bill-anthropic-cache': 'claude-cache-sim' },
  });
  await gateway.createChannel({
    protocol: 'gemini',
    baseUrl: gemini.url,
    secret: geminiSecret,
    models: { 'bill-gemini-cache': 'gemini-cache-sim' },
  });
  await gateway.createChannel({
    protocol: 'bedrock',
    baseUrl: bedrock.url,
    secret: bedrock.channelSecret,
    models: { 'bill-bedrock-cache': 'sim-cached-prompt' },
    settings: { region: bedrock.region },
  });
});

afterAll(async () => {
  await gateway?.close();
  await anthropic?.close();
  await gemini?.close();
  await bedrock?.close();
});

describe('one answer, one price, whichever client protocol asked', () => {
  it.each(vendors)(
    '$name: chat, Responses and Messages, streamed and not, cost exactly the same',
    async ({ model, cacheWriteTokens }) => {
      const user = await gateway.createUser();
      const key = await gateway.createKey(user);
      await gateway.topUp(user, startingBalance);
      const openai = gateway.client(key.secret);
      const claude = new Anthropic({ apiKey: key.secret, baseURL: gateway.url, maxRetries: 0 });

      await openai.chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] });
      for await (const _chunk of await openai.chat.completions.create({
        model,
        messages: [{ role: 'user', content: prompt }],
        stream: true,
      })) {
        // read to the end
      }
      const response = await openai.responses.create({ model, input: prompt, store: false });
      expect(response.usage).toMatchObject({
        input_tokens: promptTokens,
        output_tokens: completionTokens,
        input_tokens_details: { cached_tokens: cachedTokens },
      });
      await openai.responses.stream({ model, input: prompt, store: false }).finalResponse();
      const message = await claude.messages.create({
        model,
        max_tokens: 100,
        messages: [{ role: 'user', content: prompt }],
      });
      expect(
        message.usage.input_tokens +
          (message.usage.cache_read_input_tokens ?? 0) +
          (message.usage.cache_creation_input_tokens ?? 0),
      ).toBe(promptTokens);
      expect(message.usage.output_tokens).toBe(completionTokens);
      await claude.messages
        .stream({ model, max_tokens: 100, messages: [{ role: 'user', content: prompt }] })
        .finalMessage();

      await settleEverything([gateway.running], user.id);
      const logs = await gateway.running.billing.store.listUsageLogs({ userId: user.id, limit: 10 });
      const cost = expectedCost(cacheWriteTokens);
      const rows = logs.map((log) => ({
        endpoint: log.endpoint,
        streamed: log.streamed,
        status: log.status,
        promptTokens: log.promptTokens,
        cachedTokens: log.cachedTokens,
        cacheWriteTokens: log.cacheWriteTokens,
        completionTokens: log.completionTokens,
        cost: log.cost,
      }));
      const expected = (['chat.completions', 'responses', 'messages'] as const).flatMap((endpoint) =>
        [false, true].map((streamed) => ({
          endpoint,
          streamed,
          status: 200,
          promptTokens,
          cachedTokens,
          cacheWriteTokens,
          completionTokens,
          cost,
        })),
      );
      expect(rows).toHaveLength(6);
      expect(rows).toEqual(expect.arrayContaining(expected));
      expect(await gateway.running.billing.store.readBalance(user.id)).toBe(startingBalance - 6 * cost);
    },
  );
});
