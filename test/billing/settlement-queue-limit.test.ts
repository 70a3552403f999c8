// While the database cannot take settlements, the queue of settled requests is bounded: once it holds
// GATEWAY_SETTLEMENT_QUEUE_LIMIT rows, new requests get 503 with Retry-After instead of growing memory; /metrics
// shows the backlog meanwhile.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BillingStore } from '../../src/storage/billing-store.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from './start-billing-test-gateway.js';

const model = 'queued-model';
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello' }];
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [model],
    prices: [createUnitPrice(model)],
    billing: { settlementQueueLimit: 3 },
  });
});

afterAll(async () => {
  await gateway?.close();
});

/** `gateway_settlement_backlog_rows` as /metrics serves it. */
async function backlogRowsInMetrics(): Promise<number> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith('gateway_settlement_backlog_rows '));
  if (line === undefined) throw new Error('gateway_settlement_backlog_rows is missing from /metrics');
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('the settlement queue limit', () => {
  it('answers 503 with Retry-After at admission while the queue is full, and admits again once it drained', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    await gateway.topUp(user, 1_000_000);
    const client = gateway.client(key.secret);
    const store: BillingStore = gateway.running.billing.store;
    const writeSettlementBatch = store.writeSettlementBatch;
    store.writeSettlementBatch = () => Promise.reject(new Error('database unavailable'));
    try {
      for (let index = 0; index < 3; index++) await client.chat.completions.create({ model, messages, max_tokens: 5 });
      gateway.simulator.reset();
      const response = await fetch(`${gateway.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages, max_tokens: 5 }),
      });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await response.json()).toMatchObject({ error: { code: 'service_unavailable', type: 'server_error' } });
      expect(gateway.simulator.requests).toHaveLength(0);
      expect(gateway.running.billing.writer.queuedRows).toBe(3);
      expect(await backlogRowsInMetrics()).toBe(3);
    } finally {
      store.writeSettlementBatch = writeSettlementBatch;
    }
    // The writer retries on its own once its pause after the failed flushes is over.
    await vi.waitFor(() => expect(gateway.running.billing.writer.queuedRows).toBe(0), {
      timeout: 20_000,
      interval: 50,
    });
    // Rows taken off the queue stay in the backlog until their batch is written.
    await vi.waitFor(async () => expect(await backlogRowsInMetrics()).toBe(0), { timeout: 20_000, interval: 50 });
    await expect(client.chat.completions.create({ model, messages, max_tokens: 5 })).resolves.toBeDefined();
    await settleEverything([gateway.running], user.id);
    const logs = await store.listUsageLogs({ userId: user.id, limit: 10 });
    expect(logs.map((log) => log.status)).toEqual([200, 200, 200, 200]);
    expect(await store.findBalanceMismatches()).toEqual([]);
  });
});
