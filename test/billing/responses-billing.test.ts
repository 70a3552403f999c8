// A Responses API request passed through to an OpenAI channel is billed from the usage the vendor reported in its
// Response (cache reads at their own price), streamed or not: the same answer costs the same either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelPrice } from '../../src/billing/model-price.js';
import { settleEverything, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';

const model = 'responses-billed';
/** Uncached input 1, cache reads 0.1, cache writes 5 and output 3 micro-units a token: a token billed at the wrong price changes the cost. */
const price: ModelPrice = {
  modelId: model,
  inputPerMillion: 1_000_000,
  cachedInputPerMillion: 100_000,
  cacheWritePerMillion: 5_000_000,
  outputPerMillion: 3_000_000,
  imagePrices: {},
  audioPerMinute: 0,
  videoPerSecond: 0,
};
const startingBalance = 10_000_000;
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [], prices: [price] });
  // `sim-cached-prompt` reports half of the prompt as read from the cache.
  await gateway.createChannel({
    protocol: 'openai',
    baseUrl: gateway.simulator.url,
    secret: 'upstream',
    models: { [model]: 'sim-cached-prompt' },
    settings: { responsesApi: 'true' },
  });
});

afterAll(async () => {
  await gateway?.close();
});

describe('Responses API billing', () => {
  it('bills the usage the vendor reported, the same streamed or not', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    await gateway.topUp(user, startingBalance);
    const client = gateway.client(key.secret);
    const input = 'one two three four five six seven eight';

    const plain = await client.responses.create({ model, input });
    const streamed = await client.responses.stream({ model, input }).finalResponse();
    const usage = plain.usage;
    expect(usage).toMatchObject({ input_tokens: 8, input_tokens_details: { cached_tokens: 4 }, output_tokens: 9 });
    expect(streamed.usage).toEqual(usage);

    await settleEverything([gateway.running], user.id);
    const logs = await gateway.running.billing.store.listUsageLogs({ userId: user.id, limit: 10 });
    const cached = usage?.input_tokens_details.cached_tokens ?? 0;
    const expectedCost = Math.ceil(
      ((usage?.input_tokens ?? 0) - cached) * 1 + cached * 0.1 + (usage?.output_tokens ?? 0) * 3,
    );
    expect(
      logs.map((log) => ({
        endpoint: log.endpoint,
        streamed: log.streamed,
        promptTokens: log.promptTokens,
        cachedTokens: log.cachedTokens,
        completionTokens: log.completionTokens,
        cost: log.cost,
      })),
    ).toEqual(
      [true, false].map((streamedLog) => ({
        endpoint: 'responses',
        streamed: streamedLog,
        promptTokens: 8,
        cachedTokens: 4,
        completionTokens: 9,
        cost: expectedCost,
      })),
    );
    expect(await gateway.running.billing.store.readBalance(user.id)).toBe(startingBalance - 2 * expectedCost);
  });
});
