// Through a running gateway and the official openai SDK: a request by alias is charged its pinned id's operator price
// exactly; a model with no price is refused with 404 model_not_found before any vendor call (and no charge) until the
// operator sets a default price `*`.
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelPrice } from '../../src/billing/model-price.js';
import { callConsoleApi, createSessionToken } from '../api/console-api-client.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from './start-billing-test-gateway.js';

const alias = 'claude-haiku-4-5';
const pinnedId = 'claude-haiku-4-5-20251001';
const unpricedModel = 'made-up-unpriced-model';
const unpricedImageModel = 'made-up-image-model';
const startingBalance = 100_000_000;
/** 2,700 micro-units a token in and 5,400 out: the catalog's list price is 1 and 5. */
const pinnedPrice: ModelPrice = {
  ...createUnitPrice(pinnedId),
  inputPerMillion: 2_700_000_000,
  cachedInputPerMillion: 2_700_000_000,
  cacheWritePerMillion: 2_700_000_000,
  outputPerMillion: 5_400_000_000,
};

let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [alias, unpricedModel, unpricedImageModel],
    prices: [pinnedPrice],
  });
});

afterAll(async () => {
  await gateway?.close();
});

async function billedKey() {
  const user = await gateway.createUser();
  const key = await gateway.createKey(user);
  await gateway.topUp(user, startingBalance);
  return { user, secret: key.secret };
}

async function usageLogsOf(userId: string) {
  await settleEverything([gateway.running], userId);
  return gateway.running.billing.store.listUsageLogs({ userId, limit: 10 });
}

async function adminToken(): Promise<string> {
  const admin = await gateway.createUser('admin');
  return createSessionToken(gateway, admin.id);
}

describe('a request by alias', () => {
  it("is charged the pinned id's operator price exactly, streamed or not", async () => {
    const { user, secret } = await billedKey();
    const client = gateway.client(secret);
    const answer = await client.chat.completions.create({
      model: alias,
      messages: [{ role: 'user', content: 'hello there' }],
      max_tokens: 5,
    });
    expect(answer.model).toBe(alias);
    const stream = await client.chat.completions.create({
      model: alias,
      messages: [{ role: 'user', content: 'hello there' }],
      max_tokens: 5,
      stream: true,
      stream_options: { include_usage: true },
    });
    let streamedUsage: { prompt_tokens: number; completion_tokens: number } | undefined;
    for await (const chunk of stream) streamedUsage = chunk.usage ?? streamedUsage;
    const usage = answer.usage!;
    const logs = await usageLogsOf(user.id);
    const expected = usage.prompt_tokens * 2_700 + usage.completion_tokens * 5_400;
    const streamedExpected = streamedUsage!.prompt_tokens * 2_700 + streamedUsage!.completion_tokens * 5_400;
    expect(logs.map((log) => [log.model, log.cost]).sort()).toEqual(
      [
        [alias, expected],
        [alias, streamedExpected],
      ].sort(),
    );
    expect(await gateway.running.billing.store.readBalance(user.id)).toBe(
      startingBalance - expected - streamedExpected,
    );
  });

  it('is listed by the price API at the price it is billed at', async () => {
    const token = await adminToken();
    const listed = await callConsoleApi(gateway, 'GET', '/prices', token);
    const prices = listed.body.data as ModelPrice[];
    expect(prices.find((price) => price.modelId === alias)).toEqual({ ...pinnedPrice, modelId: alias });
  });
});

describe('a model without a price', () => {
  it('is refused with 404 model_not_found naming it, with no vendor call and no charge', async () => {
    const { user, secret } = await billedKey();
    gateway.simulator.reset();
    const refusal = gateway.client(secret).chat.completions.create({
      model: unpricedModel,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(refusal).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    await expect(refusal).rejects.toThrow(`'${unpricedModel}' has no price`);
    await expect(gateway.client(secret).embeddings.create({ model: unpricedModel, input: 'hi' })).rejects.toMatchObject(
      { status: 404, code: 'model_not_found' },
    );
    await expect(
      gateway.client(secret).audio.transcriptions.create({
        model: unpricedModel,
        file: await toFile(Buffer.alloc(4_000, 1), 'speech.mp3'),
      }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    expect(gateway.simulator.requests).toHaveLength(0);
    await settleEverything([gateway.running], user.id);
    expect(await gateway.running.billing.store.readBalance(user.id)).toBe(startingBalance);
    // `/v1/models` keeps listing it: the channel serves it; the refusal says why it cannot be used.
    const listed = await gateway.client(secret).models.list();
    expect(listed.data.map((model) => model.id)).toContain(unpricedModel);
  });

  it("is billed at the operator's default price `*` once set, and refused again once it is removed", async () => {
    const { user, secret } = await billedKey();
    const token = await adminToken();
    const set = await callConsoleApi(gateway, 'PUT', '/prices/*', token, {
      inputPerMillion: 3_000_000,
      outputPerMillion: 7_000_000,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ modelId: '*', inputPerMillion: 3_000_000 });
    try {
      const answer = await gateway.client(secret).chat.completions.create({
        model: unpricedModel,
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 5,
      });
      // The default has no image price: image requests for unpriced models stay refused, before any vendor call.
      gateway.simulator.reset();
      await expect(
        gateway.client(secret).images.generate({ model: unpricedImageModel, prompt: 'a cat' }),
      ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
      expect(gateway.simulator.requests).toHaveLength(0);
      const logs = await usageLogsOf(user.id);
      const usage = answer.usage!;
      expect(logs.filter((log) => log.status === 200).map((log) => log.cost)).toEqual([
        usage.prompt_tokens * 3 + usage.completion_tokens * 7,
      ]);
    } finally {
      expect((await callConsoleApi(gateway, 'DELETE', '/prices/*', token)).body).toEqual({ modelId: '*', price: null });
    }
    await expect(
      gateway
        .client(secret)
        .chat.completions.create({ model: unpricedModel, messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });
});
