// The same answer costs the same through every vendor, streamed or not, with prompt-cache reads and writes each priced
// at their own price: usage flows from each adapter's parser to the bill and the usage log.
import { request } from 'undici';
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
 * What each simulator reports for the eight-word prompt below (they count words): a prompt of 8 tokens with 4 read from
 * the cache, and the 9-word answer "Echo: one … eight". Anthropic also writes 1 token to the cache, Bedrock 2; the
 * OpenAI and Gemini simulators report cache reads only.
 */
const vendors = [
  { name: 'openai', model: 'sim-cached-prompt', cacheWriteTokens: 0 },
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

describe('prompt-cache tokens are billed at their own prices through every vendor', () => {
  it.each(vendors)(
    '$name: streamed and plain answers cost exactly the same, cache writes and reads at their prices',
    async ({ model, cacheWriteTokens }) => {
      const user = await gateway.createUser();
      const key = await gateway.createKey(user);
      await gateway.topUp(user, startingBalance);
      const client = gateway.client(key.secret);
      const messages = [{ role: 'user' as const, content: prompt }];

      const plain = await client.chat.completions.create({ model, messages });
      expect(plain.usage).toMatchObject({
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        prompt_tokens_details: { cached_tokens: cachedTokens },
      });
      const stream = await client.chat.completions.create({ model, messages, stream: true });
      for await (const _chunk of stream) {
        // read to the end
      }

      await settleEverything([gateway.running], user.id);
      const logs = await gateway.running.billing.store.listUsageLogs({ userId: user.id, limit: 10 });
      const cost = expectedCost(cacheWriteTokens);
      expect(
        logs.map((log) => ({
          streamed: log.streamed,
          status: log.status,
          promptTokens: log.promptTokens,
          cachedTokens: log.cachedTokens,
          cacheWriteTokens: log.cacheWriteTokens,
          completionTokens: log.completionTokens,
          cost: log.cost,
        })),
      ).toEqual(
        [true, false].map((streamed) => ({
          streamed,
          status: 200,
          promptTokens,
          cachedTokens,
          cacheWriteTokens,
          completionTokens,
          cost,
        })),
      );
      expect(await gateway.running.billing.store.readBalance(user.id)).toBe(startingBalance - 2 * cost);
    },
  );

  it('shows the cache-write count of each request in the usage log API', async () => {
    const password = 'correct horse battery staple';
    const user = await gateway.createUser('user', password);
    const key = await gateway.createKey(user);
    await gateway.topUp(user, startingBalance);
    await gateway
      .client(key.secret)
      .chat.completions.create({ model: 'bill-anthropic-cache', messages: [{ role: 'user', content: prompt }] });
    await settleEverything([gateway.running], user.id);
    const login = await request(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password }),
    });
    const { token } = (await login.body.json()) as { token: string };
    const logs = await request(`${gateway.url}/api/usage/logs`, { headers: { authorization: `Bearer ${token}` } });
    const { data } = (await logs.body.json()) as { data: unknown[] };
    expect(data).toEqual([
      expect.objectContaining({
        model: 'bill-anthropic-cache',
        promptTokens,
        cachedTokens,
        cacheWriteTokens: 1,
        cost: expectedCost(1),
      }),
    ]);
  });
});
