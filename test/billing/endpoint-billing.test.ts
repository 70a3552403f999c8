import { toFile } from 'openai';
import { createWav } from '../helpers/create-wav.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';

const chatModel = 'endpoint-chat';
const embeddingModel = 'endpoint-embedding';
const imageModel = 'endpoint-image';
const audioModel = 'endpoint-audio';
const completionModel = 'endpoint-completion';
const sampleRate = 8_000;

let gateway: BillingTestGateway;

beforeAll(async () => {
  const models = [chatModel, embeddingModel, imageModel, audioModel, completionModel];
  gateway = await startBillingTestGateway({ models, prices: models.map(createUnitPrice) });
});

afterAll(async () => {
  await gateway?.close();
});

async function billedUser(): Promise<{ user: UserRecord; secret: string }> {
  const user = await gateway.createUser();
  const key = await gateway.createKey(user);
  await gateway.topUp(user, 10_000_000);
  return { user, secret: key.secret };
}

async function onlyLog(userId: string) {
  await gateway.running.billing.writer.flush();
  const logs = await gateway.running.billing.store.listUsageLogs({ userId, limit: 10 });
  expect(logs).toHaveLength(1);
  expect(await gateway.running.billing.store.readBalance(userId)).toBe(10_000_000 - logs[0]!.cost);
  return logs[0]!;
}

// The unit price is one micro-unit per token, 1,000 per image and 60,000 per audio minute (one per millisecond).
describe('every endpoint is held and settled', () => {
  it('bills embeddings by the vendor-reported input tokens', async () => {
    const { user, secret } = await billedUser();
    const answer = await gateway
      .client(secret)
      .embeddings.create({ model: embeddingModel, input: ['one two three', 'four five'] });
    const log = await onlyLog(user.id);
    expect(log).toMatchObject({
      endpoint: 'embeddings',
      promptTokens: answer.usage.prompt_tokens,
      cost: answer.usage.prompt_tokens,
    });
  });

  it('bills completions by vendor usage', async () => {
    const { user, secret } = await billedUser();
    const answer = await gateway
      .client(secret)
      .completions.create({ model: completionModel, prompt: 'say something short', max_tokens: 5 });
    const log = await onlyLog(user.id);
    expect(log.cost).toBe(answer.usage!.prompt_tokens + answer.usage!.completion_tokens);
  });

  it('bills images per returned image', async () => {
    const { user, secret } = await billedUser();
    const answer = await gateway
      .client(secret)
      .images.generate({ model: imageModel, prompt: 'a cat', n: 2, size: '256x256' });
    expect(answer.data).toHaveLength(2);
    const log = await onlyLog(user.id);
    expect(log).toMatchObject({ endpoint: 'images.generations', cost: 2_000 });
  });

  it("bills transcriptions by the vendor's billed seconds", async () => {
    const { user, secret } = await billedUser();
    await gateway.client(secret).audio.transcriptions.create({
      model: audioModel,
      file: await toFile(createWav(1.5, { sampleRate }), 'speech.wav'),
      response_format: 'verbose_json',
    });
    // 1.5 s of audio: verbose_json's duration is 1.5, its usage (what the vendor bills) 2 whole seconds.
    const log = await onlyLog(user.id);
    expect(log).toMatchObject({ endpoint: 'audio.transcriptions', cost: 2_000 });
  });

  it('counts a rejected request (429) per minute and key without charging, and writes it no usage log row', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    await gateway
      .client(key.secret)
      .chat.completions.create({ model: chatModel, messages: [{ role: 'user', content: 'hi' }] })
      .catch(() => undefined);
    await gateway.running.billing.writer.flush();
    const { store } = gateway.running.billing;
    expect(await store.listUsageLogs({ userId: user.id, limit: 10 })).toEqual([]);
    expect(await store.listRefusedRequestCounts({ userId: user.id, from: 0, to: Date.now() + 60_000 })).toEqual([
      expect.objectContaining({
        apiKeyId: key.apiKeyId,
        model: chatModel,
        status: 429,
        errorCode: 'insufficient_quota',
        count: 1,
      }),
    ]);
    expect(await store.readBalance(user.id)).toBe(0);
  });
});
