// A stream cut before its usage is billed from the text it generated, counted in the tokenizer worker: the gateway's
// main thread never loads gpt-tokenizer (its tables would stay in the heap), and the hold stays taken until the count.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';
import { cutStreamAfterFirstWords } from './cut-stream-after-first-words.js';
import { createBilledClient, estimatedChatInput, waitForSettledLog } from './settled-request-helpers.js';

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

const body = {
  model: pacedModel,
  messages: [{ role: 'user' as const, content: 'hello there world' }],
  stream: true as const,
};

describe('a stream cut before its usage', () => {
  it('is billed from its generated text counted in the worker, without loading gpt-tokenizer in the main thread', async () => {
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    await cutStreamAfterFirstWords(client, body);
    const log = await waitForSettledLog(gateway, userId);
    expect(log.status).toBe(499);
    expect(log.completionTokens).toBeGreaterThan(0);
    expect(log.completionTokens).toBeLessThan(20);
    expect(log.cost).toBe(estimatedChatInput(body) + log.completionTokens);
    // The module the in-thread counter would load (gpt-tokenizer's CommonJS build) is not in this thread's cache.
    expect(require.cache[require.resolve('gpt-tokenizer')]).toBeUndefined();
    expect(gateway.running.billing.tokenCounter.startedWorkers).toBeGreaterThan(0);
  });

  it('keeps its hold taken until the count arrives, then settles with the counted tokens', async () => {
    const { userId, client } = await createBilledClient(gateway, startingBalance);
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
      const log = await waitForSettledLog(gateway, userId);
      expect(billing.memory.user(userId).held).toBe(0);
      expect(log).toMatchObject({ status: 499, completionTokens: 5, cost: estimatedChatInput(body) + 5 });
    } finally {
      count.mockRestore();
    }
  });
});
