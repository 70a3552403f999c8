// Refused requests are counted per minute, key, model, status and error code, not written one usage row each: anyone
// signed up could otherwise write rows at request rate. The counts still reach the rollups, so the console's request
// and error counts stay honest.
import pino from 'pino';
import { FormData, request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RefusedRequestCounter } from '../../src/billing/refused-request-counter.js';
import { SettlementBatchWriter } from '../../src/billing/settlement-batch-writer.js';
import type { BillingStore } from '../../src/storage/billing-store.js';
import { StoreUnavailableError } from '../../src/storage/store-unavailable-error.js';
import { openBillingStoreWithKey } from '../helpers/open-billing-store-with-key.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';

const engines = storageTestEngines('refused-counts');
const minute = Date.UTC(2026, 0, 5, 12, 30);

describe('the refused request counter', () => {
  it('groups refusals per minute, key, model, status and code, and leaves out groups past its limit', () => {
    const counter = new RefusedRequestCounter(2);
    const refusal = {
      receivedAt: minute + 5_000,
      userId: 'usr_a',
      apiKeyId: 'key_a',
      model: 'm',
      status: 429,
      errorCode: 'insufficient_quota',
    };
    for (let index = 0; index < 300; index++)
      expect(counter.count({ ...refusal, receivedAt: minute + index })).toBe(true);
    expect(counter.count({ ...refusal, errorCode: 'rate_limit_exceeded' })).toBe(true);
    // A third group would pass the limit: left out and counted as dropped; the known groups still count.
    expect(counter.count({ ...refusal, receivedAt: minute + 60_000 })).toBe(false);
    expect(counter.count(refusal)).toBe(true);
    expect(counter.dropped).toBe(1);
    const drained = counter.drain();
    expect(drained).toEqual([
      {
        minute,
        userId: 'usr_a',
        apiKeyId: 'key_a',
        model: 'm',
        status: 429,
        errorCode: 'insufficient_quota',
        count: 301,
      },
      {
        minute,
        userId: 'usr_a',
        apiKeyId: 'key_a',
        model: 'm',
        status: 429,
        errorCode: 'rate_limit_exceeded',
        count: 1,
      },
    ]);
    expect(counter.size).toBe(0);
    counter.count(refusal);
    counter.restore(drained);
    expect(counter.drain()[0]?.count).toBe(302);
  });
});

for (const engine of engines) {
  describe.runIf(engine.run)(`refused request counts on ${engine.name}`, () => {
    let database: TestDatabase;
    let store: BillingStore;
    let userId: string;
    let apiKeyId: string;

    beforeEach(async () => {
      database = await engine.create();
      ({ billingStore: store, userId, apiKeyId } = await openBillingStoreWithKey(database, 'refused'));
    });

    afterEach(async () => {
      await store.close();
      await database.drop();
    });

    function refusal(receivedAt: number, errorCode = 'insufficient_quota', status = 429) {
      return { receivedAt, userId, apiKeyId, model: 'm', status, errorCode };
    }

    it('writes 500 refusals of one key in one minute as one row with the exact count, and adds them to the rollups', async () => {
      let now = minute;
      const writer = new SettlementBatchWriter({
        store,
        intervalMs: 250,
        logger: pino({ level: 'silent' }),
        clock: () => now,
      });
      for (let index = 0; index < 500; index++) {
        expect(writer.countRefusal(refusal(minute + index * 100))).toBe(true);
        // The writer flushes as usual while refusals arrive: each flush adds to the same row.
        if (index % 100 === 99) {
          now += 250;
          await writer.flush();
        }
      }
      writer.countRefusal(refusal(minute + 61_000, 'rate_limit_exceeded'));
      await writer.flush();
      expect(await store.listRefusedRequestCounts({ userId, from: minute - 60_000, to: minute + 120_000 })).toEqual([
        { minute, userId, apiKeyId, model: 'm', status: 429, errorCode: 'insufficient_quota', count: 500 },
        {
          minute: minute + 60_000,
          userId,
          apiKeyId,
          model: 'm',
          status: 429,
          errorCode: 'rate_limit_exceeded',
          count: 1,
        },
      ]);
      expect(await store.listUsageLogs({ userId, limit: 10 })).toEqual([]);
      expect(await store.listUsageSummaries({ userId })).toEqual([
        expect.objectContaining({ model: 'm', requestCount: 501, errorCount: 501, cost: 0 }),
      ]);
      expect(await store.listHourlyUsage({ userId, from: minute - 3_600_000, to: minute + 3_600_000 })).toEqual([
        expect.objectContaining({ requestCount: 501, errorCount: 501 }),
      ]);
      // Retention deletes the counts with the logs.
      await store.deleteUsageLogsBefore(minute + 60_000);
      expect(await store.listRefusedRequestCounts({ userId, from: 0, to: minute + 120_000 })).toHaveLength(1);
    });

    it('keeps the counts of a batch the database could not take, and writes them exactly once it is back', async () => {
      let failing = true;
      const flaky: BillingStore = {
        ...store,
        writeSettlementBatch: (batch) =>
          failing
            ? Promise.reject(new StoreUnavailableError('database', new Error('connection refused')))
            : store.writeSettlementBatch(batch),
      };
      let now = minute;
      const writer = new SettlementBatchWriter({
        store: flaky,
        intervalMs: 250,
        logger: pino({ level: 'silent' }),
        clock: () => now,
      });
      for (let index = 0; index < 40; index++) writer.countRefusal(refusal(minute + index));
      await writer.flush();
      for (let index = 0; index < 2; index++) writer.countRefusal(refusal(minute + 1_000 + index));
      expect(writer.refusedGroups).toBe(1);
      failing = false;
      now += 10_000;
      await writer.flush();
      expect(writer.refusedGroups).toBe(0);
      expect(await store.listRefusedRequestCounts({ userId, from: 0, to: minute + 60_000 })).toEqual([
        expect.objectContaining({ count: 42 }),
      ]);
    });
  });
}

describe('refused requests through a gateway', () => {
  const model = 'refused-model';
  let gateway: BillingTestGateway;

  beforeAll(async () => {
    gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('counts 500 requests refused for a short balance in a few rows, exactly, with no usage log row each', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    // One micro-unit: past the check before the body (some money is left), refused by the hold at admission.
    await gateway.topUp(user, 1);
    const client = gateway.client(key.secret);
    const statuses: number[] = [];
    // 25 at a time: the server refuses more than 32 requests in flight from one address before accounting sees them.
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(
        Array.from({ length: 25 }, () =>
          client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 }).then(
            () => 200,
            (error: { status: number }) => error.status,
          ),
        ),
      );
      statuses.push(...answers);
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(500);
    expect(gateway.simulator.requests).toHaveLength(0);
    const { store } = gateway.running.billing;
    await gateway.running.billing.writer.flush();
    const groups = await store.listRefusedRequestCounts({ userId: user.id, from: 0, to: Date.now() + 60_000 });
    // One row per minute the burst touched (at most a few), summing to exactly the refusals.
    expect(groups.length).toBeLessThanOrEqual(3);
    expect(groups.every((group) => group.errorCode === 'insufficient_quota' && group.status === 429)).toBe(true);
    expect(groups.reduce((total, group) => total + group.count, 0)).toBe(500);
    expect(await store.listUsageLogs({ userId: user.id, limit: 10 })).toEqual([]);
    const summaries = await store.listUsageSummaries({ userId: user.id });
    expect(summaries.reduce((total, row) => total + row.errorCount, 0)).toBe(500);
  });

  it('counts uploads refused before their body is read, under no model', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    // No balance: a multipart upload is refused before the gateway reads it, so its model is never known.
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) {
      const form = new FormData();
      form.append('model', model);
      form.append('file', new Blob([new Uint8Array(2048)], { type: 'audio/wav' }), 'speech.wav');
      const answer = await request(`${gateway.url}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.secret}` },
        body: form,
      });
      await answer.body.dump();
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([429, 429, 429, 429]);
    await gateway.running.billing.writer.flush();
    const groups = await gateway.running.billing.store.listRefusedRequestCounts({
      userId: user.id,
      from: 0,
      to: Date.now() + 60_000,
    });
    expect(groups.reduce((total, group) => total + group.count, 0)).toBe(4);
    expect(groups.every((group) => group.model === '' && group.errorCode === 'insufficient_quota')).toBe(true);
  });

  it("shows a user their own refusals through GET /api/usage/refusals, and no one else's", async () => {
    const password = 'refusals password';
    const signIn = async (email: string) => {
      const answer = await request(`${gateway.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      return ((await answer.body.json()) as { token: string }).token;
    };
    const refusals = async (token: string) => {
      const answer = await request(`${gateway.url}/api/usage/refusals`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.statusCode).toBe(200);
      return (await answer.body.json()) as { total: number; data: Array<{ apiKeyId: string; errorCode: string }> };
    };
    const refused = await gateway.createUser('user', password);
    const bystander = await gateway.createUser('user', password);
    const key = await gateway.createKey(refused);
    await gateway.topUp(refused, 1);
    for (let index = 0; index < 3; index++)
      await gateway
        .client(key.secret)
        .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 })
        .catch(() => undefined);
    await gateway.running.billing.writer.flush();
    const own = await refusals(await signIn(refused.email));
    expect(own.total).toBe(3);
    expect(own.data).toEqual([
      expect.objectContaining({ apiKeyId: key.apiKeyId, errorCode: 'insufficient_quota', count: 3 }),
    ]);
    expect((await refusals(await signIn(bystander.email))).total).toBe(0);
  });
});
