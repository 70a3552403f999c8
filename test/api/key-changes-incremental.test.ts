// Key changes through the /api (create, disable, enable, patch, delete) are applied to that key alone: the new key
// works and a revoked one is refused at once, with no full reload of routing or billing; any other change still
// reloads everything. Deleting a key is audited like its other writes.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

const model = 'incremental-key-model';
const password = 'correct horse battery staple';
let gateway: BillingTestGateway;

beforeAll(async () => {
  // No periodic forced billing reload, so every full load counted below was caused by a change.
  gateway = await startBillingTestGateway({
    models: [model],
    prices: [createUnitPrice(model)],
    billing: { reloadIntervalMs: 0 },
  });
});

afterAll(async () => {
  await gateway?.close();
});

async function callApi(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
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

/** The status of one chat request made with the key (200 when it worked). */
async function statusOfRequestWith(secret: string): Promise<number> {
  try {
    await gateway
      .client(secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 });
    return 200;
  } catch (error) {
    return (error as { status?: number }).status ?? -1;
  }
}

function fullLoads(): { routing: number; billing: number } {
  return { routing: gateway.running.routing.fullLoads, billing: gateway.running.billing.fullLoads };
}

describe('key changes applied key by key', () => {
  it('serves a new key and refuses a disabled, narrowed or deleted one at once, without a full reload', async () => {
    const user = await gateway.createUser('user', password);
    const group = await gateway.createGroup();
    await gateway.running.store.grantUserGroups(user.id, [group.id]);
    await gateway.topUp(user, 1_000_000);
    const token = await signIn(user);
    await gateway.running.routing.refresh();
    const before = fullLoads();

    const created = await callApi('POST', '/keys', token, { group: group.name, name: 'laptop' });
    expect(created.status).toBe(201);
    const { id: keyId, key: secret } = created.body as { id: string; key: string };
    expect(await statusOfRequestWith(secret)).toBe(200);

    expect((await callApi('POST', `/keys/${keyId}/disable`, token)).status).toBe(200);
    expect(await statusOfRequestWith(secret)).toBe(401);
    expect((await callApi('POST', `/keys/${keyId}/enable`, token)).status).toBe(200);
    expect(await statusOfRequestWith(secret)).toBe(200);

    // A billing setting of the key (its address list; this client is 127.0.0.1) is in force at once too.
    expect((await callApi('PATCH', `/keys/${keyId}`, token, { allowedIps: ['10.0.0.0/8'] })).status).toBe(200);
    expect(await statusOfRequestWith(secret)).toBe(403);
    expect((await callApi('PATCH', `/keys/${keyId}`, token, { allowedIps: [] })).status).toBe(200);
    expect(await statusOfRequestWith(secret)).toBe(200);

    expect((await callApi('DELETE', `/keys/${keyId}`, token)).status).toBe(200);
    expect(await statusOfRequestWith(secret)).toBe(401);

    expect(fullLoads()).toEqual(before);
  });

  it('still reloads everything after a change that is not one key alone', async () => {
    const before = fullLoads();
    await gateway.createGroup();
    await gateway.running.routing.refresh();
    expect(gateway.running.routing.fullLoads).toBe(before.routing + 1);
  });

  it('audits deleting a key, naming who did it', async () => {
    const user = await gateway.createUser('user', password);
    const group = await gateway.createGroup();
    await gateway.running.store.grantUserGroups(user.id, [group.id]);
    const token = await signIn(user);
    const admin = await gateway.createUser('admin', password);
    const adminToken = await signIn(admin);
    const own = (await callApi('POST', '/keys', token, { group: group.name, name: 'own' })).body as { id: string };
    const other = (await callApi('POST', '/keys', token, { group: group.name, name: 'other' })).body as { id: string };

    expect((await callApi('DELETE', `/keys/${own.id}`, token)).status).toBe(200);
    expect((await callApi('DELETE', `/keys/${other.id}`, adminToken)).status).toBe(200);

    const audit = await callApi('GET', '/admin/audit-log?action=key.delete', adminToken);
    expect(audit.status).toBe(200);
    const entries = (audit.body.data as Array<Record<string, unknown>>).filter((entry) =>
      [own.id, other.id].includes(String(entry.targetId)),
    );
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'key.delete',
          targetId: own.id,
          actorUserId: user.id,
          details: expect.objectContaining({ userId: user.id, name: 'own', by: 'owner' }),
        }),
        expect.objectContaining({
          action: 'key.delete',
          targetId: other.id,
          actorUserId: admin.id,
          details: expect.objectContaining({ userId: user.id, name: 'other', by: 'admin' }),
        }),
      ]),
    );
    expect(entries).toHaveLength(2);
  });
});
