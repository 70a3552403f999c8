// Administrators' actions are written to the audit log with who, what and when; only admins can read it.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import { callConsoleApi } from './console-api-client.js';

const model = 'audit-model';
const password = 'correct horse battery staple';
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
});

afterAll(async () => {
  await gateway?.close();
});

function callApi(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  token: string,
  body?: unknown,
): ReturnType<typeof callConsoleApi> {
  return callConsoleApi(gateway, method, path, token, body);
}

async function signIn(email: string): Promise<string> {
  const response = await request(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await response.body.json()) as { token: string }).token;
}

describe('the audit log', () => {
  it('records credits, grants, price and ratio changes with the acting admin, newest first', async () => {
    const admin = await gateway.createUser('admin', password);
    const user = await gateway.createUser('user', password);
    const group = await gateway.createGroup();
    const token = await signIn(admin.email);

    expect(
      (
        await callApi('POST', `/users/${user.id}/credits`, token, {
          amount: '2.5',
          kind: 'adjustment',
          description: 'goodwill',
        })
      ).status,
    ).toBe(201);
    expect((await callApi('PUT', `/users/${user.id}/groups`, token, { groups: [group.name] })).status).toBe(200);
    expect((await callApi('PUT', `/prices/${model}`, token, { inputPerMillion: 5, outputPerMillion: 7 })).status).toBe(
      200,
    );
    expect(
      (await callApi('PUT', `/groups/${group.id}/price-ratio`, token, { priceRatioMillionths: 2_000_000 })).status,
    ).toBe(200);

    const listed = await callApi('GET', `/admin/audit-log?limit=10`, token);
    expect(listed.status).toBe(200);
    const actions = (
      listed.body.data as Array<{
        action: string;
        actorLabel: string;
        actorUserId: string;
        targetId: string;
        details: Record<string, unknown>;
      }>
    ).slice(0, 4);
    expect(actions.map((entry) => entry.action)).toEqual([
      'group.price-ratio.set',
      'price.set',
      'user.groups.set',
      'user.credit',
    ]);
    for (const entry of actions) {
      expect(entry.actorUserId).toBe(admin.id);
      expect(entry.actorLabel).toBe(admin.email);
    }
    expect(actions[3]).toMatchObject({
      targetId: user.id,
      details: { amount: 2_500_000, kind: 'adjustment', description: 'goodwill' },
    });
    expect(actions[2]).toMatchObject({ targetId: user.id, details: { groups: [group.name] } });

    const credits = await callApi('GET', `/admin/audit-log?action=user.credit&targetId=${user.id}`, token);
    expect(credits.body.data).toHaveLength(1);
  });

  it('is for admins only', async () => {
    const user = await gateway.createUser('user', password);
    const response = await callApi('GET', '/admin/audit-log', await signIn(user.email));
    expect(response.status).toBe(403);
  });

  it('records key disable and enable by the owner and by an admin, naming each actor', async () => {
    const admin = await gateway.createUser('admin', password);
    const owner = await gateway.createUser('user', password);
    const { apiKeyId } = await gateway.createKey(owner);
    const ownerToken = await signIn(owner.email);
    const adminToken = await signIn(admin.email);

    expect((await callApi('POST', `/keys/${apiKeyId}/disable`, ownerToken)).status).toBe(200);
    expect((await callApi('POST', `/keys/${apiKeyId}/enable`, ownerToken)).status).toBe(200);
    expect((await callApi('POST', `/keys/${apiKeyId}/disable`, adminToken)).status).toBe(200);
    // Refused (an admin disabled it): nothing changes, so nothing is recorded.
    expect((await callApi('POST', `/keys/${apiKeyId}/enable`, ownerToken)).status).toBe(403);

    const listed = await callApi('GET', `/admin/audit-log?targetId=${apiKeyId}`, adminToken);
    expect(listed.body.data).toMatchObject([
      {
        action: 'key.disable',
        actorUserId: admin.id,
        actorLabel: admin.email,
        actorKind: 'user',
        actorId: null,
        targetType: 'api_key',
        details: { userId: owner.id, statusBefore: 'active', status: 'disabled', by: 'admin' },
      },
      { action: 'key.enable', actorUserId: owner.id, actorKind: 'user', details: { status: 'active', by: 'owner' } },
      { action: 'key.disable', actorUserId: owner.id, actorKind: 'user', details: { status: 'disabled', by: 'owner' } },
    ]);
  });
});
