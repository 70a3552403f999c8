// PATCH /api/keys/:id: owners edit their keys within the operator's bounds, admins beyond them (audit-logged),
// nobody sees another user's key; changes reach /v1 at once.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

const model = 'key-update-model';
const password = 'correct horse battery staple';
const keyRequestsPerMinute = 60;
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [model],
    prices: [createUnitPrice(model)],
    billing: { keyLimits: { requestsPerMinute: keyRequestsPerMinute, tokensPerMinute: 0, maxConcurrentRequests: 0 } },
  });
});

afterAll(async () => {
  await gateway?.close();
});

async function callApi(
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await request(`${gateway.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
}

async function signIn(user: UserRecord): Promise<string> {
  const response = await request(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password }),
  });
  return ((await response.body.json()) as { token: string }).token;
}

async function createOwnerWithKey(): Promise<{ user: UserRecord; token: string; keyId: string; secret: string }> {
  const user = await gateway.createUser('user', password);
  const group = await gateway.createGroup();
  await gateway.running.store.grantUserGroups(user.id, [group.id]);
  const token = await signIn(user);
  const created = await callApi('POST', '/keys', token, { group: group.name, name: 'laptop' });
  expect(created.status).toBe(201);
  return { user, token, keyId: created.body.id, secret: created.body.key };
}

describe('PATCH /api/keys/:id', () => {
  it("lets the owner change name, expiry, cap, addresses and limits within the operator's bounds", async () => {
    const owner = await createOwnerWithKey();
    const expiresAt = Date.now() + 86_400_000;
    const changed = await callApi('PATCH', `/keys/${owner.keyId}`, owner.token, {
      name: 'desktop',
      expiresAt,
      spendingCap: 5_000_000,
      allowedIps: ['10.0.0.0/8'],
      limits: { requestsPerMinute: 30 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id: owner.keyId,
      name: 'desktop',
      expiresAt,
      spendingCap: 5_000_000,
      allowedIps: ['10.0.0.0/8'],
      limits: { requestsPerMinute: 30, tokensPerMinute: null, maxConcurrentRequests: null },
    });
    expect((await callApi('GET', '/keys', owner.token)).body.data[0]).toMatchObject({
      name: 'desktop',
      allowedIps: ['10.0.0.0/8'],
    });
    // The address list is in force on /v1 at once: this client is 127.0.0.1.
    await gateway.topUp(owner.user, 1_000_000);
    await expect(
      gateway
        .client(owner.secret)
        .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 }),
    ).rejects.toMatchObject({ status: 403 });
    // Clearing the list and the cap (null) works again; untouched fields keep their values.
    const cleared = await callApi('PATCH', `/keys/${owner.keyId}`, owner.token, {
      allowedIps: [],
      spendingCap: null,
      expiresAt: null,
    });
    expect(cleared.body).toMatchObject({
      name: 'desktop',
      expiresAt: null,
      spendingCap: null,
      allowedIps: [],
      limits: { requestsPerMinute: 30 },
    });
    await gateway
      .client(owner.secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 });

    const tooHigh = await callApi('PATCH', `/keys/${owner.keyId}`, owner.token, {
      limits: { requestsPerMinute: keyRequestsPerMinute + 1 },
    });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.error.param).toBe('limits.requestsPerMinute');
    const unlimited = await callApi('PATCH', `/keys/${owner.keyId}`, owner.token, { limits: { requestsPerMinute: 0 } });
    expect(unlimited.status).toBe(400);
    expect(
      (await callApi('PATCH', `/keys/${owner.keyId}`, owner.token, { allowedIps: ['not an address'] })).body.error
        .param,
    ).toBe('allowedIps.0');
    expect((await callApi('GET', '/keys', owner.token)).body.data[0].limits.requestsPerMinute).toBe(30);
  });

  it("lets an admin go beyond the bounds, audit-logged, and keeps the owner's later edits from undoing it", async () => {
    const owner = await createOwnerWithKey();
    const admin = await gateway.createUser('admin', password);
    const adminToken = await signIn(admin);
    const raised = await callApi('PATCH', `/keys/${owner.keyId}`, adminToken, {
      limits: { requestsPerMinute: 0, maxConcurrentRequests: 500 },
      spendingCap: 9,
    });
    expect(raised.status).toBe(200);
    expect(raised.body.limits).toEqual({ requestsPerMinute: 0, tokensPerMinute: null, maxConcurrentRequests: 500 });

    const audit = await callApi('GET', `/admin/audit-log?action=key.update&targetId=${owner.keyId}`, adminToken);
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        actorUserId: admin.id,
        action: 'key.update',
        targetType: 'api_key',
        targetId: owner.keyId,
        details: expect.objectContaining({ userId: owner.user.id, spendingCap: 9 }),
      }),
    ]);

    // The owner renaming the key touches neither the admin's limits nor the bounds check.
    const renamed = await callApi('PATCH', `/keys/${owner.keyId}`, owner.token, { name: 'renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'renamed',
      spendingCap: 9,
      limits: { requestsPerMinute: 0, maxConcurrentRequests: 500 },
    });
    // The owner's own edits are not admin actions.
    expect(
      (await callApi('GET', `/admin/audit-log?action=key.update&targetId=${owner.keyId}`, adminToken)).body.data,
    ).toHaveLength(1);
  });

  it("answers 404 for another user's key and changes nothing", async () => {
    const owner = await createOwnerWithKey();
    const stranger = await createOwnerWithKey();
    const attempt = await callApi('PATCH', `/keys/${owner.keyId}`, stranger.token, { name: 'mine now' });
    expect(attempt.status).toBe(404);
    expect(attempt.body.error.code).toBe('not_found');
    expect((await callApi('GET', '/keys', owner.token)).body.data[0].name).toBe('laptop');
  });
});
