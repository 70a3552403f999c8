// A settled request's usage log keeps what its cost was computed from: the prices before the ratio, the ratio applied
// and the other components. Each component (tokens × price × ratio) summed exactly and rounded up once is the cost.
import { parse } from 'csv-parse/sync';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelPrice } from '../../src/billing/model-price.js';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';

// Prices and a ratio that leave fractions of a micro-unit in every component, so only one rounding gives the cost.
const plainModel = 'pricing-view-model';
const cachedModel = 'sim-cached-prompt';
const price = (modelId: string): ModelPrice => ({
  modelId,
  inputPerMillion: 2_500_003,
  cachedInputPerMillion: 1_250_001,
  cacheWritePerMillion: 3_125_007,
  outputPerMillion: 10_000_019,
  imagePrices: {},
  audioPerMinute: 0,
  videoPerSecond: 0,
});
const groupRatio = 1_333_333;
const password = 'correct horse battery staple';
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [plainModel, cachedModel],
    prices: [price(plainModel), price(cachedModel)],
  });
});

afterAll(async () => {
  await gateway?.close();
});

interface PricedLog {
  requestId: string;
  promptTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  completionTokens: number;
  cost: number;
  streamed: boolean;
  pricing: {
    inputPerMillion: number;
    cachedInputPerMillion: number;
    cacheWritePerMillion: number;
    outputPerMillion: number;
    priceRatioMillionths: number;
    imageCost: number;
    audioMilliseconds: number;
    audioPerMinute: number;
    videoCost: number;
  } | null;
}

/** Each component in 10^-12 micro-units (tokens × micro-units per million × ratio in millionths), summed exactly. */
function exactTotal(log: PricedLog): bigint {
  const pricing = log.pricing!;
  const ratio = BigInt(pricing.priceRatioMillionths);
  const uncached = log.promptTokens - log.cachedTokens - log.cacheWriteTokens;
  const components = [
    BigInt(uncached) * BigInt(pricing.inputPerMillion) * ratio,
    BigInt(log.cachedTokens) * BigInt(pricing.cachedInputPerMillion) * ratio,
    BigInt(log.cacheWriteTokens) * BigInt(pricing.cacheWritePerMillion) * ratio,
    BigInt(log.completionTokens) * BigInt(pricing.outputPerMillion) * ratio,
    (BigInt(pricing.imageCost + pricing.videoCost) * 1_000_000_000_000n * ratio) / 1_000_000n,
  ];
  return components.reduce((sum, component) => sum + component, 0n);
}

describe('the usage log’s cost breakdown', () => {
  it('keeps the prices and ratio a request was charged with, and its components add up to its cost', async () => {
    const user = await gateway.createUser('user', password);
    const key = await gateway.createKey(user);
    await gateway.running.billing.exclusive(() =>
      gateway.running.billing.store.setGroupPriceRatio(key.groupId, groupRatio),
    );
    await gateway.running.billing.refresh(true);
    await gateway.topUp(user, 10_000_000);
    const client = gateway.client(key.secret);

    const plain = await client.chat.completions
      .create({ model: plainModel, messages: [{ role: 'user', content: 'explain my bill, please' }], max_tokens: 7 })
      .withResponse();
    const cached = await client.chat.completions
      .create({
        model: cachedModel,
        messages: [{ role: 'user', content: 'a b c d e f g h i j' }],
        max_tokens: 5,
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    for await (const chunk of cached.data) void chunk;
    await gateway.running.billing.settlementsQueued();
    await gateway.running.billing.writer.flush();

    const login = await request(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password }),
    });
    const { token } = (await login.body.json()) as { token: string };
    const readLog = async (requestId: string | null): Promise<PricedLog> => {
      const answer = await request(`${gateway.url}/api/usage/logs?requestId=${requestId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const { data } = (await answer.body.json()) as { data: PricedLog[] };
      expect(data).toHaveLength(1);
      return data[0]!;
    };

    const plainLog = await readLog(plain.response.headers.get('x-request-id'));
    expect(plainLog.pricing).toEqual({
      inputPerMillion: 2_500_003,
      cachedInputPerMillion: 1_250_001,
      cacheWritePerMillion: 3_125_007,
      // no 1-hour price of its own: twice the input price
      cacheWriteOneHourPerMillion: 5_000_006,
      outputPerMillion: 10_000_019,
      priceRatioMillionths: groupRatio,
      imageCost: 0,
      audioMilliseconds: 0,
      audioPerMinute: 0,
      videoCost: 0,
    });
    const cachedLog = await readLog(cached.response.headers.get('x-request-id'));
    expect(cachedLog.streamed).toBe(true);
    expect(cachedLog.cachedTokens).toBeGreaterThan(0);

    for (const log of [plainLog, cachedLog]) {
      expect(log.cost).toBeGreaterThan(0);
      const total = exactTotal(log);
      const unit = 1_000_000_000_000n;
      // Not a whole micro-unit: the cost is the exact total rounded up once.
      expect(total % unit).not.toBe(0n);
      expect(BigInt(log.cost)).toBe((total + unit - 1n) / unit);
    }

    const csv = await request(`${gateway.url}/api/usage/logs.csv`, { headers: { authorization: `Bearer ${token}` } });
    const rows = parse(await csv.body.text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows.find((row) => row.requestId === plainLog.requestId)).toMatchObject({
      inputPerMillion: '2500003',
      outputPerMillion: '10000019',
      priceRatioMillionths: String(groupRatio),
      cost: String(plainLog.cost),
    });
  });
});
