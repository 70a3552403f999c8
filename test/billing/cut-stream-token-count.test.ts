// A stream cut before its usage is billed from the text it generated, counted in the tokenizer worker: the gateway's
// main thread never loads gpt-tokenizer (its tables would stay in the heap), and the hold stays taken until the count.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { estimateWorstCaseUsage } from '../../src/billing/estimate-worst-case-usage.js';
import type { MeteredRequest } from '../../src/server/request-accounting.js';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';
import { cutStreamAfterFirstWords } from './cut-stream-after-first-words.js';

const startingBalance = 10_000_000;
/** The OpenAI simulator streams 20 words, 50 ms apart, and its usage after the last. */
const pacedModel = 'sim-paced-20x50';
const require = createRequire(import.meta.url);

let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [pacedModel], prices: [createUnitPrice(pacedModel)] });
});

afterAll(async () => {
  await gateway?.close();
});

async function billedKey() {
  const user = await gateway.createUser();
  const key = await gateway.createKey(user);
  await gateway.topUp(user, startingBalance);
  return { userId: user.id, client: gateway.client(key.secret) };
}

/** The one usage log of the user, once the gateway settled the request. */
async function settledLog(userId: string) {
  const { store } = gateway.running.billing;
  return vi.waitFor(
    async () => {
      await gateway.running.billing.settlementsQueued();
      await gateway.running.billing.writer.flush();
      const logs = await store.listUsageLogs({ userId, limit: 10 });
      expect(logs).toHaveLength(1);
      return logs[0]!;
    },
    { timeout: 15_000, interval: 50 },
  );
}

function estimatedInput(body: Record<string, unknown>): number {
  const request = { endpoint: 'chat.completions', body, model: { id: String(body.model), maxOutputTokens: undefined } } as unknown as MeteredRequest;
  return estimateWorstCaseUsage(request).inputTokens;
}

const body = { model: pacedModel, messages: [{ role: 'user' as const, content: 'hello there world' }], stream: true as const };

describe('a stream cut before its usage', () => {
  it('is billed from its generated text counted in the worker, without loading gpt-tokenizer in the main thread', async () => {
    const { userId, client } = await billedKey();
    await cutStreamAfterFirstWords(client, body);
    const log = await settledLog(userId);
    expect(log.status).toBe(499);
    expect(log.completionTokens).toBeGreaterThan(0);
    expect(log.completionTokens).toBeLessThan(20);
    expect(log.cost).toBe(estimatedInput(body) + log.completionTokens);
    // The module the in-thread counter would load (gpt-tokenizer's CommonJS build) is not in this thread's cache.
    expect(require.cache[require.resolve('gpt-tokenizer')]).toBeUndefined();
    expect(gateway.running.billing.tokenCounter.startedWorkers).toBeGreaterThan(0);
  });

  it('keeps its hold taken until the count arrives, then settles with the counted tokens', async () => {
    const { userId, client } = await billedKey();
    const { billing } = gateway.running;
    let deliverCount: (counts: number[]) => void = () => undefined;
    const count = vi.spyOn(billing.tokenCounter, 'count').mockImplementation(
      () =>
        new Promise<number[]>((resolve) => {
          deliverCount = resolve;
        }),
    );
    try {
      await cutStreamAfterFirstWords(client, body);
      await vi.waitFor(() => expect(count).toHaveBeenCalledTimes(1), { timeout: 10_000, interval: 10 });
      expect(billing.memory.user(userId).held).toBeGreaterThan(0);

      deliverCount([5]);
      const log = await settledLog(userId);
      expect(billing.memory.user(userId).held).toBe(0);
      expect(log).toMatchObject({ status: 499, completionTokens: 5, cost: estimatedInput(body) + 5 });
    } finally {
      count.mockRestore();
    }
  });
});
