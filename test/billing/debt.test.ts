// A vendor reports more than the hold and the balance cannot cover it: the rest becomes debt (never a negative
// balance, never forgiven), new requests are refused while it stands, and the next credit pays it first.
import OpenAI from 'openai';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminTokenPrefix, generateConsoleToken, hashConsoleToken } from '../../src/accounts/console-token.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from './start-billing-test-gateway.js';

// The simulator answers `sim-paced-200x0` with 200 words whatever the hold assumed; with no max_tokens the hold
// reserves only GATEWAY_DEFAULT_MAX_OUTPUT_TOKENS (5 here), so the answer costs far more than was held.
const model = 'sim-paced-200x0';
const password = 'debt test password';
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello' }];

let gateway: BillingTestGateway;
let adminToken: string;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [model],
    prices: [createUnitPrice(model)],
    billing: { defaultMaxOutputTokens: 5 },
  });
  adminToken = generateConsoleToken(adminTokenPrefix);
  await gateway.running.billing.store.createAdminToken({ tokenHash: hashConsoleToken(adminToken), name: 'debt test' });
});

afterAll(async () => {
  await gateway?.close();
});

async function callApi(method: 'GET' | 'POST', path: string, token: string, body?: unknown) {
  const response = await request(`${gateway.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.statusCode, body: (await response.body.json()) as any };
}

describe('debt', () => {
  it('leaves balance 0 and the rest as debt, refuses new requests while it stands, and takes it from the next top-up first', async () => {
    const user = await gateway.createUser('user', password);
    const key = await gateway.createKey(user);
    await gateway.topUp(user, 20);
    const client = gateway.client(key.secret);
    const { store } = gateway.running.billing;

    const answer = await client.chat.completions.create({ model, messages });
    const cost = answer.usage!.prompt_tokens + answer.usage!.completion_tokens;
    expect(cost).toBeGreaterThan(20);
    await settleEverything([gateway.running], user.id);
    expect(await store.readStoredBalance(user.id)).toMatchObject({ balance: 0, debt: cost - 20 });
    const [log] = await store.listUsageLogs({ userId: user.id, limit: 10 });
    expect(log).toMatchObject({ status: 200, cost });
    const [settlement] = await store.listLedgerEntries(user.id, { limit: 1 });
    expect(settlement).toMatchObject({ kind: 'settlement', amount: -20, debtChange: cost - 20 });
    expect(await store.findBalanceMismatches()).toEqual([]);

    // Shown to the user and to admins.
    const session = (await request(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password }),
    }).then((response) => response.body.json())) as { token: string };
    expect((await callApi('GET', '/balance', session.token)).body).toMatchObject({ balance: 0, debt: cost - 20 });
    expect((await callApi('GET', '/me', session.token)).body.balance).toMatchObject({ debt: cost - 20 });
    const listed = (await callApi('GET', '/users', adminToken)).body.data as Array<{
      id: string;
      balance: { debt: number };
    }>;
    expect(listed.find((entry) => entry.id === user.id)?.balance.debt).toBe(cost - 20);

    // Refused before any upstream call, saying why, even though a request this small would fit a fresh balance.
    gateway.simulator.reset();
    const refused = await client.chat.completions
      .create({ model, messages, max_tokens: 1 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('insufficient_quota');
    expect((refused as InstanceType<typeof OpenAI.APIError>).message).toMatch(/unpaid debt/);
    expect(gateway.simulator.requests).toHaveLength(0);

    // The next credit pays the debt first.
    const credit = await callApi('POST', `/users/${user.id}/credits`, adminToken, {
      kind: 'top-up',
      amountMicroUnits: 1_000,
    });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({
      balance: 1_000 - (cost - 20),
      debt: 0,
      repayment: { kind: 'debt-repayment', amount: -(cost - 20), debtChange: -(cost - 20) },
    });
    expect((await callApi('GET', '/balance', session.token)).body).toMatchObject({
      balance: 1_000 - (cost - 20),
      debt: 0,
    });
    await expect(client.chat.completions.create({ model, messages, max_tokens: 1 })).resolves.toBeDefined();
    await settleEverything([gateway.running], user.id);
    expect(await store.findBalanceMismatches()).toEqual([]);
  });

  it('pays a debt still waiting in the batch from a credit that came first, as soon as the batch is written', async () => {
    const user = await gateway.createUser();
    const key = await gateway.createKey(user);
    await gateway.topUp(user, 20);
    const client = gateway.client(key.secret);
    const { store, memory, writer } = gateway.running.billing;
    const writeSettlementBatch = store.writeSettlementBatch;
    store.writeSettlementBatch = () => Promise.reject(new Error('database unavailable'));
    let debt: number;
    try {
      const answer = await client.chat.completions.create({ model, messages });
      debt = answer.usage!.prompt_tokens + answer.usage!.completion_tokens - 20;
      await vi.waitFor(() => expect(memory.user(user.id).held).toBe(0));
      await gateway.topUp(user, 1_000);
      // The debt is not written yet, so the credit could not pay it: still refused.
      expect(memory.user(user.id)).toMatchObject({ balance: 1_000, debt });
      await expect(client.chat.completions.create({ model, messages, max_tokens: 1 })).rejects.toMatchObject({
        status: 429,
        code: 'insufficient_quota',
      });
    } finally {
      store.writeSettlementBatch = writeSettlementBatch;
    }
    await vi.waitFor(() => expect(writer.queuedRows).toBe(0), { timeout: 20_000, interval: 50 });
    // The queue empties when a batch is taken; the flush queued behind it resolves once that batch is written.
    await writer.flush();
    expect(memory.user(user.id)).toMatchObject({ balance: 1_000 - debt, debt: 0 });
    expect(await store.readStoredBalance(user.id)).toMatchObject({ balance: 1_000 - debt, debt: 0 });
    await expect(client.chat.completions.create({ model, messages, max_tokens: 1 })).resolves.toBeDefined();
    await settleEverything([gateway.running], user.id);
    expect(await store.findBalanceMismatches()).toEqual([]);
  });
});
