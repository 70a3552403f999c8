import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateRequestCost } from '../../src/billing/calculate-request-cost.js';
import { estimateWorstCaseUsage } from '../../src/billing/estimate-worst-case-usage.js';
import type { MeteredRequest } from '../../src/billing/request-accounting.js';
import { requestEstimateOf } from './request-estimate-of-body.js';
import { createUnitPrice, startBillingTestGateway, type BillingTestGateway } from './start-billing-test-gateway.js';

const model = 'billed-model';
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello there world' }];
const maxTokens = 20;

let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [model, 'sim-paced-20x50', 'sim-error-500'],
    prices: [createUnitPrice(model), createUnitPrice('sim-paced-20x50'), createUnitPrice('sim-error-500')],
  });
});

afterAll(async () => {
  await gateway?.close();
});

/** What accounting holds for the test request, computed the way the gateway does. */
function worstCaseCost(): number {
  const request = {
    endpoint: 'chat.completions',
    estimate: requestEstimateOf('chat.completions', { model, messages, max_tokens: maxTokens }),
    model: { id: model, maxOutputTokens: undefined },
  } as unknown as MeteredRequest;
  return calculateRequestCost(estimateWorstCaseUsage(request).usage, createUnitPrice(model));
}

async function settledState(userId: string) {
  await gateway.running.billing.writer.flush();
  const store = gateway.running.billing.store;
  // Logs first: a batch the timer writes between the two reads then shows in the balance too (one transaction
  // writes both), where the other order could see its log without its charge.
  const logs = await store.listUsageLogs({ userId, limit: 500 });
  const balance = await store.readBalance(userId);
  const mismatches = await store.findBalanceMismatches();
  return { balance: balance!, logs, mismatches };
}

describe('hold and settle', () => {
  it('answers 429 insufficient_quota before any upstream call when the balance cannot cover the hold', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    await gateway.topUp(user, worstCaseCost() - 1);
    gateway.simulator.reset();
    const error = await gateway
      .client(key.secret)
      .chat.completions.create({ model, messages, max_tokens: maxTokens })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('insufficient_quota');
    expect(gateway.simulator.requests).toHaveLength(0);
    const state = await settledState(user.id);
    expect(state.balance).toBe(worstCaseCost() - 1);
    // Refused requests are counted per minute and key, not logged one row each.
    expect(state.logs).toEqual([]);
    const refused = await gateway.running.billing.store.listRefusedRequestCounts({
      userId: user.id,
      from: 0,
      to: Date.now() + 60_000,
    });
    expect(refused.map((group) => [group.status, group.errorCode, group.count])).toEqual([
      [429, 'insufficient_quota', 1],
    ]);
  });

  it('charges the vendor-reported usage, releases the rest, and bills streamed and plain answers the same', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    await gateway.topUp(user, 1_000_000);
    const client = gateway.client(key.secret);
    const plain = await client.chat.completions.create({ model, messages, max_tokens: maxTokens });
    const stream = await client.chat.completions.create({ model, messages, max_tokens: maxTokens, stream: true });
    for await (const _chunk of stream) {
      // drain
    }
    const state = await settledState(user.id);
    const expectedCost = plain.usage!.prompt_tokens + plain.usage!.completion_tokens;
    expect(expectedCost).toBeLessThan(worstCaseCost());
    expect(state.logs.map((log) => [log.streamed, log.cost, log.status])).toEqual(
      expect.arrayContaining([
        [false, expectedCost, 200],
        [true, expectedCost, 200],
      ]),
    );
    expect(state.balance).toBe(1_000_000 - 2 * expectedCost);
    expect(state.mismatches).toEqual([]);
  });

  it('refunds everything when the upstream fails', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    await gateway.topUp(user, 1_000_000);
    await gateway
      .client(key.secret)
      .chat.completions.create({ model: 'sim-error-500', messages, max_tokens: maxTokens })
      .catch(() => undefined);
    const state = await settledState(user.id);
    expect(state.balance).toBe(1_000_000);
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ cost: 0 });
    expect(state.logs[0]!.status).toBeGreaterThanOrEqual(500);
    expect(gateway.running.billing.memory.user(user.id).held).toBe(0);
  });

  it('bills an abandoned stream for what the vendor did: drained to its end, the usage of the whole answer', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    await gateway.topUp(user, 1_000_000);
    const client = gateway.client(key.secret);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'sim-paced-20x50', messages, stream: true },
      { signal: controller.signal },
    );
    let chunks = 0;
    await (async () => {
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) chunks += 1;
        if (chunks === 5) controller.abort();
      }
    })().catch(() => undefined);
    // The gateway settles when it notices the closed connection.
    let state = await settledState(user.id);
    for (let attempt = 0; attempt < 100 && state.logs.length === 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = await settledState(user.id);
    }
    expect(state.logs).toHaveLength(1);
    const fullCost = 3 + 20; // 3 prompt words and 20 generated words, one token each
    const log = state.logs[0]!;
    // The client saw 5 words; the vendor generated 20 and reported them: leaving early does not make them free.
    expect(log.completionTokens).toBe(20);
    expect(log.cost).toBe(fullCost);
    expect(state.balance).toBe(1_000_000 - log.cost);
    expect(state.mismatches).toEqual([]);
  });
});
