// Who may create keys in which group, who may re-enable a key, and which limits an owner may set: through the /api
// of a running gateway with real stores, as a signed-in user (or an attacker with an account) would try it.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenPrefix, generateConsoleToken, hashConsoleToken } from '../../src/accounts/console-token.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

const model = 'access-model';
const password = 'correct horse battery staple';

interface JsonResponse {
  status: number;
  body: any;
}

function createApiClient(gateway: () => BillingTestGateway) {
  return async function callApi(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    token: string | undefined,
    body?: unknown,
  ): Promise<JsonResponse> {
    const response = await request(`${gateway().url}/api${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
  };
}

async function createAdminToken(gateway: BillingTestGateway): Promise<string> {
  const token = generateConsoleToken(adminTokenPrefix);
  await gateway.running.billing.store.createAdminToken({ tokenHash: hashConsoleToken(token), name: 'access test' });
  return token;
}

describe('group entitlements, key ownership and key limits on the /api', () => {
  let gateway: BillingTestGateway;
  let adminToken: string;
  const callApi = createApiClient(() => gateway);

  beforeAll(async () => {
    gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
    adminToken = await createAdminToken(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  async function signIn(user: UserRecord): Promise<string> {
    const response = await callApi('POST', '/auth/login', undefined, { email: user.email, password });
    expect(response.status).toBe(200);
    return response.body.token as string;
  }

  const ask = (secret: string) =>
    gateway
      .client(secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 })
      .then(
        () => 200,
        (error: { status: number }) => error.status,
      );

  it('refuses keys in groups the user does not hold with the same 404 whether the group exists or not', async () => {
    const user = await gateway.createUser('user', password);
    const token = await signIn(user);
    const reserved = await gateway.createGroup();

    const existing = await callApi('POST', '/keys', token, { group: reserved.name });
    const byId = await callApi('POST', '/keys', token, { group: reserved.id });
    const missing = await callApi('POST', '/keys', token, { group: 'no-such-group-anywhere' });
    for (const response of [existing, byId, missing]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        error: { message: 'group not found', type: 'invalid_request_error', param: 'group', code: 'not_found' },
      });
    }
    expect((await callApi('GET', '/keys', token)).body.data).toEqual([]);

    await gateway.running.store.grantUserGroups(user.id, [reserved.id]);
    expect((await callApi('POST', '/keys', token, { group: reserved.name })).status).toBe(201);
  });

  it("lets an admin replace a user's groups, naming an unknown one, and lets users read only their own", async () => {
    const user = await gateway.createUser('user', password);
    const other = await gateway.createUser('user', password);
    const token = await signIn(user);
    const first = await gateway.createGroup();
    const second = await gateway.createGroup();

    const unknown = await callApi('PUT', `/users/${user.id}/groups`, adminToken, {
      groups: [first.name, 'no-such-group'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ param: 'groups[1]', code: 'invalid_request_error' });
    expect((await callApi('PUT', `/users/${user.id}/groups`, token, { groups: [first.name] })).status).toBe(403);
    expect((await callApi('PUT', '/users/usr_missing/groups', adminToken, { groups: [] })).status).toBe(404);

    const granted = await callApi('PUT', `/users/${user.id}/groups`, adminToken, { groups: [second.name, first.id] });
    expect(granted.status).toBe(200);
    expect(granted.body.data.map((group: { name: string }) => group.name).sort()).toEqual(
      [first.name, second.name].sort(),
    );
    expect(granted.body.data[0]).toMatchObject({ models: ['*'], priceRatioMillionths: 1_000_000 });

    const own = await callApi('GET', `/users/${user.id}/groups`, token);
    expect(own.status).toBe(200);
    expect(own.body.data).toHaveLength(2);
    expect((await callApi('GET', `/users/${other.id}/groups`, token)).status).toBe(404);
    expect((await callApi('GET', `/users/${other.id}/groups`, adminToken)).body.data).toEqual([]);

    const replaced = await callApi('PUT', `/users/${user.id}/groups`, adminToken, { groups: [second.name] });
    expect(replaced.body.data.map((group: { name: string }) => group.name)).toEqual([second.name]);
  });

  it("disables a user's keys in a withdrawn group at the next routing refresh, and shows why in the key list", async () => {
    const user = await gateway.createUser('user', password);
    const token = await signIn(user);
    await gateway.topUp(user, 1_000_000);
    const group = await gateway.createGroup();
    const kept = await gateway.createGroup();
    expect(
      (await callApi('PUT', `/users/${user.id}/groups`, adminToken, { groups: [group.name, kept.name] })).status,
    ).toBe(200);
    const key = await callApi('POST', '/keys', token, { group: group.name });
    const keptKey = await callApi('POST', '/keys', token, { group: kept.name });
    expect(key.body).toMatchObject({ usable: true, disabledReason: null });
    expect(await ask(key.body.key)).toBe(200);

    expect((await callApi('PUT', `/users/${user.id}/groups`, adminToken, { groups: [kept.name] })).status).toBe(200);
    expect(await ask(key.body.key)).toBe(401);
    expect(await ask(keptKey.body.key)).toBe(200);
    const listed = (await callApi('GET', '/keys', token)).body.data.find(
      (entry: { id: string }) => entry.id === key.body.id,
    );
    expect(listed).toMatchObject({ status: 'active', usable: false, disabledReason: 'group_not_granted' });

    // Withdrawn by another process (the CLI): the gateway sees it at its next refresh.
    await gateway.running.store.revokeUserGroups(user.id, [kept.id]);
    await gateway.running.routing.refresh();
    expect(await ask(keptKey.body.key)).toBe(401);

    await callApi('PUT', `/users/${user.id}/groups`, adminToken, { groups: [group.name] });
    expect(await ask(key.body.key)).toBe(200);
  });

  it('gives users created through the /api the default groups', async () => {
    const defaultGroup = await gateway.running.billing.exclusive(() =>
      gateway.running.store.createModelGroup({ name: 'default', description: '', models: ['*'] }),
    );
    const created = await callApi('POST', '/users', adminToken, { email: `new-${Date.now()}@example.test`, password });
    expect(created.status).toBe(201);
    expect(created.body.groups).toEqual(['default']);
    const groups = await callApi('GET', `/users/${created.body.id}/groups`, adminToken);
    expect(groups.body.data.map((group: { id: string }) => group.id)).toEqual([defaultGroup.id]);
    const token = (await callApi('POST', '/auth/login', undefined, { email: created.body.email, password })).body
      .token as string;
    expect((await callApi('POST', '/keys', token, { group: 'default' })).status).toBe(201);
  });

  it('lets an owner re-enable only a key they disabled, never one an admin disabled', async () => {
    const user = await gateway.createUser('user', password);
    const token = await signIn(user);
    await gateway.topUp(user, 1_000_000);
    const group = await gateway.createGroup();
    await gateway.running.store.grantUserGroups(user.id, [group.id]);
    const key = await callApi('POST', '/keys', token, { group: group.name });

    const ownDisable = await callApi('POST', `/keys/${key.body.id}/disable`, token);
    expect(ownDisable.body).toMatchObject({
      status: 'disabled',
      disabledBy: 'owner',
      usable: false,
      disabledReason: 'disabled_by_owner',
    });
    expect((await callApi('POST', `/keys/${key.body.id}/enable`, token)).status).toBe(200);
    expect(await ask(key.body.key)).toBe(200);

    const adminDisable = await callApi('POST', `/keys/${key.body.id}/disable`, adminToken);
    expect(adminDisable.body).toMatchObject({
      status: 'disabled',
      disabledBy: 'admin',
      disabledReason: 'disabled_by_admin',
    });
    const refused = await callApi('POST', `/keys/${key.body.id}/enable`, token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden', type: 'invalid_request_error' });
    // Disabling it again as the owner does not make it the owner's to enable.
    expect((await callApi('POST', `/keys/${key.body.id}/disable`, token)).body.disabledBy).toBe('admin');
    expect((await callApi('POST', `/keys/${key.body.id}/enable`, token)).status).toBe(403);
    expect(await ask(key.body.key)).toBe(401);

    expect((await callApi('POST', `/keys/${key.body.id}/enable`, adminToken)).body).toMatchObject({
      status: 'active',
      disabledBy: null,
      usable: true,
    });
    expect(await ask(key.body.key)).toBe(200);
  });
});

describe('limits an owner may set on their own keys', () => {
  let gateway: BillingTestGateway;
  let adminToken: string;
  const callApi = createApiClient(() => gateway);

  beforeAll(async () => {
    gateway = await startBillingTestGateway({
      models: [model],
      prices: [createUnitPrice(model)],
      billing: { keyLimits: { requestsPerMinute: 60, tokensPerMinute: 0, maxConcurrentRequests: 4 } },
    });
    adminToken = await createAdminToken(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it("stay within the operator's defaults, with 0 (unlimited) for admins only", async () => {
    const user = await gateway.createUser('user', password);
    const token = (await callApi('POST', '/auth/login', undefined, { email: user.email, password })).body
      .token as string;
    const group = await gateway.createGroup();
    await gateway.running.store.grantUserGroups(user.id, [group.id]);
    const createKey = (caller: string, limits: Record<string, number | null>, userId?: string) =>
      callApi('POST', '/keys', caller, { group: group.name, limits, userId });

    const above = await createKey(token, { requestsPerMinute: 61 });
    expect(above.status).toBe(400);
    expect(above.body.error).toMatchObject({ param: 'limits.requestsPerMinute', code: 'invalid_request_error' });
    const unlimited = await createKey(token, { maxConcurrentRequests: 0 });
    expect(unlimited.status).toBe(400);
    expect(unlimited.body.error.param).toBe('limits.maxConcurrentRequests');
    expect((await callApi('GET', '/keys', token)).body.data).toEqual([]);

    // Within the defaults, the default itself (null), and anything where the default is unlimited.
    expect(
      (await createKey(token, { requestsPerMinute: 60, maxConcurrentRequests: 2, tokensPerMinute: 1_000_000 })).status,
    ).toBe(201);
    expect((await createKey(token, { requestsPerMinute: null, tokensPerMinute: 0 })).status).toBe(201);
    // An administrator may lift them for a user.
    const lifted = await createKey(adminToken, { requestsPerMinute: 0, maxConcurrentRequests: 1_000 }, user.id);
    expect(lifted.status).toBe(201);
    expect(lifted.body.limits).toEqual({ requestsPerMinute: 0, tokensPerMinute: null, maxConcurrentRequests: 1_000 });
  });
});
