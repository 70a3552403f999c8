import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateRequestCost } from '../../src/billing/calculate-request-cost.js';
import { estimateWorstCaseUsage } from '../../src/billing/estimate-worst-case-usage.js';
import type { MeteredRequest } from '../../src/billing/request-accounting.js';
import { requestEstimateOf } from './request-estimate-of-body.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
  settleEverything,
} from './start-billing-test-gateway.js';

const model = 'billed-model';
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello there world' }];
const maxTokens = 20;
const concurrentRequests = 200;
const affordableRequests = 50;

let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
});

afterAll(async () => {
  await gateway?.close();
});

function worstCaseCost(): number {
  const request = {
    endpoint: 'chat.completions',
    estimate: requestEstimateOf('chat.completions', { model, messages, max_tokens: maxTokens }),
    model: { id: model },
  } as unknown as MeteredRequest;
  return calculateRequestCost(estimateWorstCaseUsage(request).usage, createUnitPrice(model));
}

describe(`${concurrentRequests} concurrent requests against a balance that covers ${affordableRequests}`, () => {
  it('never drives the balance below zero, never double-charges, and leaves the ledger reconciled', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    const initialBalance = affordableRequests * worstCaseCost();
    await gateway.topUp(user, initialBalance);
    const client = gateway.client(key.secret);
    gateway.simulator.reset();

    const outcomes = await Promise.all(
      Array.from({ length: concurrentRequests }, () =>
        client.chat.completions.create({ model, messages, max_tokens: maxTokens }).then(
          (completion) => ({
            status: 200,
            cost: completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
          }),
          (error: unknown) => ({
            status: (error as InstanceType<typeof OpenAI.APIError>).status,
            code: (error as InstanceType<typeof OpenAI.APIError>).code,
            cost: 0,
          }),
        ),
      ),
    );
    const succeeded = outcomes.filter((outcome) => outcome.status === 200);
    const refused = outcomes.filter((outcome) => outcome.status !== 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(affordableRequests);
    expect(
      refused.every((outcome) => outcome.status === 429 && 'code' in outcome && outcome.code === 'insufficient_quota'),
    ).toBe(true);
    // Refused requests never reached the vendor.
    expect(gateway.simulator.requests).toHaveLength(succeeded.length);

    const { billing } = gateway.running;
    await settleEverything([gateway.running], user.id);
    expect(billing.memory.user(user.id).held).toBe(0);
    expect(billing.memory.user(user.id).balance).toBeGreaterThanOrEqual(0);
    const chargedByVendorUsage = succeeded.reduce((sum, outcome) => sum + outcome.cost, 0);
    const balance = await billing.store.readBalance(user.id);
    expect(balance).toBe(initialBalance - chargedByVendorUsage);
    expect(balance).toBeGreaterThanOrEqual(0);
    const ledger = await billing.store.listLedgerEntries(user.id, { limit: 1_000 });
    expect(ledger.filter((entry) => entry.kind === 'settlement')).toHaveLength(succeeded.length);
    expect(ledger.reduce((sum, entry) => sum + entry.amount, 0)).toBe(balance);
    const logs = await billing.store.listUsageLogs({ userId: user.id, limit: 500 });
    expect(logs).toHaveLength(concurrentRequests);
    expect(await billing.store.findBalanceMismatches()).toEqual([]);
  });
});
