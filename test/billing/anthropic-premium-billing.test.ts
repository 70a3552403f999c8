// Nothing unpriced reaches Anthropic (issue 38): a beta the channel does not offer is refused before any vendor call,
// an offered one is forwarded and billed at the channel's premium ratio, query strings are never forwarded, and
// 1-hour prompt-cache writes are billed at their own price, exactly, through the official @anthropic-ai/sdk.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelPrice } from '../../src/billing/model-price.js';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.js';
import { settleEverything, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';

const anthropicSecret = 'sk-ant-premium-upstream';
const startingBalance = 10_000_000;
const plainModel = 'claude-plain';
const longContextModel = 'claude-long-context';
const noOneHourModel = 'claude-no-one-hour';
// The simulator streams this upstream model slowly (5 words, 50 ms apart), so a hold can be read while it streams.
const pacedModel = 'claude-paced';

/** Whole micro-units per token, so every cost is exact: input 1, cache reads 1, 5-minute writes 2, 1-hour writes 3, output 4. */
function price(modelId: string): ModelPrice {
  return {
    modelId,
    inputPerMillion: 1_000_000,
    cachedInputPerMillion: 1_000_000,
    cacheWritePerMillion: 2_000_000,
    cacheWriteOneHourPerMillion: 3_000_000,
    outputPerMillion: 4_000_000,
    imagePrices: {},
    audioPerMinute: 0,
    videoPerSecond: 0,
  };
}

let gateway: BillingTestGateway;
let anthropic: AnthropicSimulator;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [],
    prices: [price(plainModel), price(longContextModel), price(noOneHourModel), price(pacedModel)],
  });
  anthropic = await startAnthropicSimulator({ apiKey: anthropicSecret });
  const channel = (model: string, settings: Record<string, string>, upstreamModel = 'claude-sim') =>
    gateway.createChannel({
      protocol: 'anthropic',
      baseUrl: anthropic.url,
      secret: anthropicSecret,
      models: { [model]: upstreamModel },
      settings,
    });
  await channel(plainModel, {});
  await channel(longContextModel, { anthropicBetas: 'context-1m-2025-08-07', premiumPriceRatio: '2' });
  await channel(noOneHourModel, { cacheTtlOneHour: 'off' });
  await channel(pacedModel, {}, 'sim-paced-5x50');
});

afterAll(async () => {
  await gateway?.close();
  await anthropic?.close();
});

async function billedClient(): Promise<{ userId: string; claude: Anthropic; secret: string }> {
  const user = await gateway.createUser();
  const key = await gateway.createKey(user);
  await gateway.topUp(user, startingBalance);
  return {
    userId: user.id,
    secret: key.secret,
    claude: new Anthropic({ apiKey: key.secret, baseURL: gateway.url, maxRetries: 0 }),
  };
}

async function usageLogs(userId: string) {
  await settleEverything([gateway.running], userId);
  return gateway.running.billing.store.listUsageLogs({ userId, limit: 10 });
}

const question = { max_tokens: 50, messages: [{ role: 'user' as const, content: 'one two three four' }] };

describe('anthropic-beta on /v1/messages', () => {
  it('refuses a beta the serving channel does not offer with a 400 naming it, without calling the vendor', async () => {
    const { claude, userId } = await billedClient();
    anthropic.reset();
    const error = await claude.messages
      .create({ model: plainModel, ...question }, { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error).toMatchObject({ status: 400, error: { error: { type: 'invalid_request_error' } } });
    expect((error as Error).message).toContain('context-1m-2025-08-07');
    expect(anthropic.requests).toHaveLength(0);
    expect(await gateway.running.billing.store.readBalance(userId)).toBe(startingBalance);
  });

  it('forwards a beta the channel offers and bills it at the channel premium ratio; free betas at the plain price', async () => {
    const { claude, userId } = await billedClient();
    anthropic.reset();
    await claude.messages.create(
      { model: plainModel, ...question },
      { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } },
    );
    expect(anthropic.requests.at(-1)?.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    await claude.messages.create(
      { model: longContextModel, ...question },
      { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } },
    );
    expect(anthropic.requests.at(-1)?.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    const [premium, plain] = await usageLogs(userId);
    // 4 input words and "Echo: one two three four" (5 words): 4 × 1 + 5 × 4 = 24 micro-units; × 2 on the premium channel.
    expect(plain).toMatchObject({ model: plainModel, status: 200, promptTokens: 4, completionTokens: 5, cost: 24 });
    expect(premium).toMatchObject({
      model: longContextModel,
      status: 200,
      promptTokens: 4,
      completionTokens: 5,
      cost: 48,
    });
    expect(premium?.pricing?.priceRatioMillionths).toBe(2_000_000);
    expect(await gateway.running.billing.store.readBalance(userId)).toBe(startingBalance - 72);
  });

  it('refuses a premium service_tier the channel does not enable, naming it', async () => {
    const { claude } = await billedClient();
    anthropic.reset();
    const error = await claude.messages
      .create({ model: plainModel, ...question, service_tier: 'auto' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain('service_tier');
    expect(anthropic.requests).toHaveLength(0);
  });

  it('sends no beta on the translated path (an OpenAI-wire client served by an Anthropic channel)', async () => {
    const { secret } = await billedClient();
    anthropic.reset();
    await gateway
      .client(secret)
      .chat.completions.create({ model: plainModel, max_tokens: 20, messages: question.messages });
    expect(anthropic.requests.at(-1)?.path).toBe('/v1/messages');
    expect(anthropic.requests.at(-1)?.headers['anthropic-beta']).toBeUndefined();
  });
});

describe('query strings', () => {
  it('are never forwarded, neither on /v1/messages nor on count_tokens (the SDK sends ?beta=true)', async () => {
    const { claude } = await billedClient();
    anthropic.reset();
    await claude.messages.create({ model: plainModel, ...question }, { query: { beta: 'true', debug: '1' } });
    await claude.beta.messages.create({ model: plainModel, ...question });
    await claude.messages.countTokens({ model: plainModel, messages: question.messages }, { query: { beta: 'true' } });
    expect(anthropic.requests.map((request) => request.path)).toEqual([
      '/v1/messages',
      '/v1/messages',
      '/v1/messages/count_tokens',
    ]);
    for (const request of anthropic.requests) expect(request.query).toBeUndefined();
  });
});

describe('1-hour prompt-cache writes', () => {
  // 8 system words cached for 1 hour plus 4 question words: the simulator writes 6 tokens for 1 hour, 3 for 5 minutes.
  const cachedSystem = [
    {
      type: 'text' as const,
      text: 'alpha beta gamma delta epsilon zeta eta theta',
      cache_control: { type: 'ephemeral' as const, ttl: '1h' as const },
    },
  ];

  it('are billed at the 1-hour price exactly, streamed or not, with a breakdown that adds up to the cost', async () => {
    const { claude, userId } = await billedClient();
    const message = await claude.messages.create({ model: plainModel, ...question, system: cachedSystem });
    expect(message.usage).toMatchObject({
      input_tokens: 3,
      cache_creation_input_tokens: 9,
      cache_creation: { ephemeral_5m_input_tokens: 3, ephemeral_1h_input_tokens: 6 },
    });
    await claude.messages.stream({ model: plainModel, ...question, system: cachedSystem }).finalMessage();
    const logs = await usageLogs(userId);
    expect(logs).toHaveLength(2);
    // 3 uncached × 1 + 3 five-minute writes × 2 + 6 one-hour writes × 3 + 5 output × 4 = 3 + 6 + 18 + 20
    for (const log of logs) {
      expect(log).toMatchObject({
        status: 200,
        promptTokens: 12,
        cachedTokens: 0,
        cacheWriteTokens: 9,
        cacheWriteOneHourTokens: 6,
        completionTokens: 5,
        cost: 47,
      });
      expect(log.pricing).toMatchObject({ cacheWritePerMillion: 2_000_000, cacheWriteOneHourPerMillion: 3_000_000 });
    }
    expect(logs.map((log) => log.streamed).sort()).toEqual([false, true]);
    expect(await gateway.running.billing.store.readBalance(userId)).toBe(startingBalance - 94);
  });

  it('are held at the 1-hour write price: the whole input may be written at it', async () => {
    const heldWhileStreaming = async (ttl: '5m' | '1h' | undefined): Promise<number> => {
      const { claude, userId } = await billedClient();
      const system = [
        {
          type: 'text' as const,
          text: cachedSystem[0]!.text,
          ...(ttl ? { cache_control: { type: 'ephemeral' as const, ttl } } : {}),
        },
      ];
      let held: number | undefined;
      const stream = claude.messages.stream({ model: pacedModel, ...question, system });
      for await (const _event of stream) held ??= gateway.running.billing.memory.user(userId).held;
      return held ?? 0;
    };
    const plain = await heldWhileStreaming(undefined);
    const fiveMinutes = await heldWhileStreaming('5m');
    const oneHour = await heldWhileStreaming('1h');
    // The estimated input I is held at 1 (input), 2 (5-minute writes) or 3 (1-hour writes) micro-units a token, beside
    // the 50 output tokens allowed at 4.
    const inputTokens = plain - 50 * 4;
    expect(inputTokens).toBeGreaterThan(0);
    expect(fiveMinutes).toBe(2 * inputTokens + 200);
    expect(oneHour).toBe(3 * inputTokens + 200);
  });

  it('are refused with a 400 naming the field on a channel that does not allow them, before any vendor call', async () => {
    const { claude } = await billedClient();
    anthropic.reset();
    const error = await claude.messages
      .create({ model: noOneHourModel, ...question, system: cachedSystem })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain('system[0].cache_control.ttl');
    expect(anthropic.requests).toHaveLength(0);
  });
});
