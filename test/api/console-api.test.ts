import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

const model = 'api-model';
const password = 'correct horse battery staple';
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
});

afterAll(async () => {
  await gateway?.close();
});

interface JsonResponse {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

async function callApi(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<JsonResponse> {
  const response = await request(`${gateway.url}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

async function signIn(user: UserRecord): Promise<string> {
  const response = await callApi('POST', '/auth/login', undefined, { email: user.email, password });
  expect(response.status).toBe(200);
  return response.body.token as string;
}

/** A new group the user holds, so they may create keys in it. */
async function createGrantedGroupName(user: UserRecord): Promise<string> {
  const group = await gateway.createGroup();
  await gateway.running.store.grantUserGroups(user.id, [group.id]);
  return group.name;
}

async function createAdminToken(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    'node',
    ['--import', 'tsx', 'src/cli/main.ts', 'admin', 'token', '--json'],
    {
      env: {
        ...process.env,
        GATEWAY_DATABASE_URL: gateway.databaseUrl,
        GATEWAY_SECRET_KEY: 'billing-test-secret-key-of-32-bytes-or-more',
      },
    },
  );
  return (JSON.parse(stdout) as { token: string }).token;
}

describe('the /api', () => {
  it('refuses calls without a session, and wrong passwords', async () => {
    expect((await callApi('GET', '/me', undefined)).status).toBe(401);
    expect((await callApi('GET', '/me', 'gwses-nonsense')).status).toBe(401);
    const user = await gateway.createUser('user', password);
    expect((await callApi('POST', '/auth/login', undefined, { email: user.email, password: 'wrong' })).status).toBe(
      401,
    );
  });

  it("never lets a user read or change another user's logs, keys, ledger or balance", async () => {
    const alice = await gateway.createUser('user', password);
    const bob = await gateway.createUser('user', password);
    const aliceToken = await signIn(alice);
    const bobToken = await signIn(bob);
    const groupName = await createGrantedGroupName(bob);
    const bobKey = await callApi('POST', '/keys', bobToken, { group: groupName, name: 'bob key' });
    expect(bobKey.status).toBe(201);
    await gateway.topUp(bob, 1_000_000);
    await gateway
      .client(bobKey.body.key)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 });
    await gateway.running.billing.writer.flush();

    expect((await callApi('GET', '/usage/logs', bobToken)).body.data).toHaveLength(1);
    expect((await callApi('GET', '/usage/logs', aliceToken)).body.data).toEqual([]);
    expect((await callApi('GET', `/usage/logs?userId=${bob.id}`, aliceToken)).body.data).toEqual([]);
    expect((await callApi('GET', `/usage/logs?keyId=${bobKey.body.id}`, aliceToken)).body.data).toEqual([]);
    expect((await callApi('GET', `/usage/summary?userId=${bob.id}`, aliceToken)).body.data).toEqual([]);
    expect((await callApi('GET', '/keys', aliceToken)).body.data).toEqual([]);
    expect((await callApi('GET', `/keys?userId=${bob.id}`, aliceToken)).body.data).toEqual([]);
    expect((await callApi('POST', `/keys/${bobKey.body.id}/disable`, aliceToken)).status).toBe(404);
    expect((await callApi('DELETE', `/keys/${bobKey.body.id}`, aliceToken)).status).toBe(404);
    expect((await callApi('GET', `/users/${bob.id}/ledger`, aliceToken)).status).toBe(404);
    expect((await callApi('GET', `/users/${bob.id}/balance`, aliceToken)).status).toBe(404);
    expect(
      (await callApi('POST', `/users/${bob.id}/credits`, aliceToken, { kind: 'top-up', amount: '5' })).status,
    ).toBe(403);
    expect((await callApi('POST', '/keys', aliceToken, { group: groupName, userId: bob.id })).status).toBe(403);
    expect(
      (await callApi('PUT', `/prices/${model}`, aliceToken, { inputPerMillion: 0, outputPerMillion: 0 })).status,
    ).toBe(403);
    expect((await callApi('GET', '/users', aliceToken)).status).toBe(403);

    // Bob sees his own things; the key list never shows the secret again.
    const bobKeys = (await callApi('GET', '/keys', bobToken)).body.data;
    expect(bobKeys).toHaveLength(1);
    expect(JSON.stringify(bobKeys)).not.toContain(bobKey.body.key);
    expect(bobKeys[0]).not.toHaveProperty('keyHash');
    const summary = (await callApi('GET', '/usage/summary', bobToken)).body;
    expect(summary.totals.requestCount).toBe(1);
  });

  it('lets an admin top up, reprice and see everyone, with effect on the next request', async () => {
    const adminToken = await createAdminToken();
    const user = await gateway.createUser('user', password);
    const userToken = await signIn(user);
    const credit = await callApi('POST', `/users/${user.id}/credits`, adminToken, {
      kind: 'top-up',
      amount: '0.000100',
      description: 'test',
    });
    expect(credit.status).toBe(201);
    expect(credit.body.balance).toBe(100);
    expect((await callApi('GET', '/balance', userToken)).body.balance).toBe(100);
    const ledger = (await callApi('GET', '/ledger', userToken)).body.data;
    expect(ledger.map((entry: { kind: string; amount: number }) => [entry.kind, entry.amount])).toEqual([
      ['top-up', 100],
    ]);
    expect(
      (await callApi('POST', `/users/${user.id}/credits`, adminToken, { kind: 'adjustment', amountMicroUnits: -101 }))
        .status,
    ).toBe(400);

    const groupName = await createGrantedGroupName(user);
    const key = (await callApi('POST', '/keys', userToken, { group: groupName })).body.key as string;
    const client = gateway.client(key);
    const ask = () =>
      client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 500 });
    await expect(ask()).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(
      (await callApi('PUT', `/prices/${model}`, adminToken, { inputPerMillion: 0, outputPerMillion: 0 })).status,
    ).toBe(200);
    await expect(ask()).resolves.toBeTruthy();
    expect((await callApi('DELETE', `/prices/${model}`, adminToken)).status).toBe(200);
    await gateway.running.billing.store.setModelPrice(createUnitPrice(model));
    await gateway.running.billing.refresh(true);

    await gateway.running.billing.writer.flush();
    const everyone = await callApi('GET', '/usage/logs', adminToken);
    expect(everyone.body.data.length).toBeGreaterThanOrEqual(2);
    expect((await callApi('GET', '/users', adminToken)).status).toBe(200);

    const created = await callApi('POST', '/users', adminToken, {
      email: `made-${Date.now()}@example.test`,
      password: 'a long password',
    });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('passwordHash');
    expect(
      (await callApi('POST', '/auth/login', undefined, { email: created.body.email, password: 'a long password' }))
        .status,
    ).toBe(200);
    expect((await callApi('POST', '/users', userToken, { email: 'x@example.test' })).status).toBe(403);
  });

  it("enforces a key's allowed IPs, spending cap and disabling on /v1", async () => {
    const user = await gateway.createUser('user', password);
    const token = await signIn(user);
    await gateway.topUp(user, 1_000_000);
    const groupName = await createGrantedGroupName(user);
    const ask = (secret: string) =>
      gateway
        .client(secret)
        .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 });

    const elsewhere = await callApi('POST', '/keys', token, { group: groupName, allowedIps: ['10.0.0.0/8'] });
    expect(elsewhere.body.allowedIps).toEqual(['10.0.0.0/8']);
    await expect(ask(elsewhere.body.key)).rejects.toMatchObject({ status: 403 });
    const local = await callApi('POST', '/keys', token, { group: groupName, allowedIps: ['127.0.0.1'] });
    await expect(ask(local.body.key)).resolves.toBeTruthy();

    const capped = await callApi('POST', '/keys', token, { group: groupName, spendingCap: 3 });
    await expect(ask(capped.body.key)).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });

    expect((await callApi('POST', `/keys/${local.body.id}/disable`, token)).status).toBe(200);
    await expect(ask(local.body.key)).rejects.toMatchObject({ status: 401 });
    expect((await callApi('DELETE', `/keys/${local.body.id}`, token)).status).toBe(200);
    expect((await callApi('GET', '/keys', token)).body.data.map((key: { id: string }) => key.id)).not.toContain(
      local.body.id,
    );
  });

  it('answers rate-limited keys with 429, retry-after and x-ratelimit headers', async () => {
    const user = await gateway.createUser('user', password);
    const token = await signIn(user);
    await gateway.topUp(user, 1_000_000);
    const groupName = await createGrantedGroupName(user);
    const key = await callApi('POST', '/keys', token, { group: groupName, limits: { requestsPerMinute: 2 } });
    const client = gateway.client(key.body.key);
    const first = await client.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 })
      .withResponse();
    expect(first.response.headers.get('x-ratelimit-limit-requests')).toBe('2');
    expect(first.response.headers.get('x-ratelimit-remaining-requests')).toBe('1');
    expect(first.response.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+s$/);
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 });
    const error = (await client.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 })
      .catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(429);
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.message).toMatch(/slow down/);
    expect(Number(error.headers?.get('retry-after'))).toBeGreaterThan(0);
  });
});
