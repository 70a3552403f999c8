// A stream the vendor cut before its usage (its client still reading) is billed from the text it generated, counted in
// the tokenizer worker: the gateway's main thread never loads gpt-tokenizer (its tables would stay in the heap), and the
// hold stays taken until the count. (A stream its client left is read on for the vendor's usage instead, or charged its
// hold: abandoned-stream-billing.test.ts.)
import { createRequire } from 'node:module';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';
import { createBilledClient, estimatedChatInput, waitForSettledLog } from './settled-request-helpers.js';

const startingBalance = 10_000_000;
/** The OpenAI simulator streams two content chunks of its echo, then breaks the connection: no usage ever comes. */
const cutModel = 'sim-broken-stream';
const require = createRequire(import.meta.url);

/** Reads a stream until the gateway ends it (here with an error event); fails unless some words arrived. */
async function readStreamUntilItBreaks(
  client: OpenAI,
  streamBody: OpenAI.Chat.ChatCompletionCreateParamsStreaming,
): Promise<void> {
  let received = '';
  try {
    for await (const chunk of await client.chat.completions.create(streamBody))
      received += chunk.choices[0]?.delta.content ?? '';
  } catch {
    // The SDK throws the stream's closing error event.
  }
  expect(received.length).toBeGreaterThan(0);
}

let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [cutModel], prices: [createUnitPrice(cutModel)] });
});

afterAll(async () => {
  await gateway?.close();
});

const body = {
  model: cutModel,
  messages: [{ role: 'user' as const, content: 'hello there world' }],
  stream: true as const,
};

describe('a stream cut before its usage', () => {
  it('is billed from its generated text counted in the worker, without loading gpt-tokenizer in the main thread', async () => {
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    await readStreamUntilItBreaks(client, body);
    const log = await waitForSettledLog(gateway, userId);
    expect(log.errorCode).not.toBeNull();
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
      await readStreamUntilItBreaks(client, body);
      await vi.waitFor(() => expect(count).toHaveBeenCalledTimes(1), { timeout: 10_000, interval: 10 });
      expect(billing.memory.user(userId).held).toBeGreaterThan(0);

      deliverCount([5]);
      const log = await waitForSettledLog(gateway, userId);
      expect(billing.memory.user(userId).held).toBe(0);
      expect(log).toMatchObject({ completionTokens: 5, cost: estimatedChatInput(body) + 5 });
    } finally {
      count.mockRestore();
    }
  });
});
