// What an administrator puts on a key binds its owner: the owner may tighten the expiry, spending cap, address list
// and request limits an admin set, never remove or raise them; and a user may hold at most GATEWAY_MAX_KEYS_PER_USER
// keys of their own making, however many requests race for the last place.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';

const model = 'owner-key-limits-model';
const password = 'correct horse battery staple';
const maxKeysPerUser = 3;
// Given to the gateway and the CLI alike, so both open the same sealed secrets.
const secretKey = 'owner-key-limits-test-secret-key-0123456789';
let gateway: BillingTestGateway;
let adminToken: string;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [model],
    prices: [createUnitPrice(model)],
    config: { maxKeysPerUser, secretKey },
  });
  adminToken = await signIn(await gateway.createUser('admin', password));
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

async function createOwner(): Promise<{ user: UserRecord; token: string; groupName: string }> {
  const user = await gateway.createUser('user', password);
  const group = await gateway.createGroup();
  await gateway.running.store.grantUserGroups(user.id, [group.id]);
  return { user, token: await signIn(user), groupName: group.name };
}

async function presentedKey(token: string, keyId: string): Promise<any> {
  const listed = await callApi('GET', '/keys', token);
  return listed.body.data.find((key: { id: string }) => key.id === keyId);
}

describe('limits an administrator set on a key', () => {
  it('cannot be removed or raised by the owner, only tightened', async () => {
    const owner = await createOwner();
    const expiresAt = Date.now() + 7 * 86_400_000;
    const created = await callApi('POST', '/keys', adminToken, {
      userId: owner.user.id,
      group: owner.groupName,
      expiresAt,
      spendingCap: 5_000_000,
      allowedIps: ['127.0.0.0/8'],
      limits: { requestsPerMinute: 20 },
    });
    expect(created.status).toBe(201);
    const keyId = created.body.id as string;

    for (const [loosening, param] of [
      [{ spendingCap: null }, 'spendingCap'],
      [{ spendingCap: 5_000_001 }, 'spendingCap'],
      [{ expiresAt: null }, 'expiresAt'],
      [{ expiresAt: expiresAt + 1 }, 'expiresAt'],
      [{ allowedIps: [] }, 'allowedIps'],
      [{ allowedIps: ['0.0.0.0/0'] }, 'allowedIps'],
      [{ limits: { requestsPerMinute: 0 } }, 'limits.requestsPerMinute'],
      [{ limits: { requestsPerMinute: null } }, 'limits.requestsPerMinute'],
      [{ limits: { requestsPerMinute: 21 } }, 'limits.requestsPerMinute'],
    ] as const) {
      const refused = await callApi('PATCH', `/keys/${keyId}`, owner.token, { name: 'loosened', ...loosening });
      expect(refused.status, JSON.stringify(loosening)).toBe(403);
      expect(refused.body.error.param).toBe(param);
    }
    // Nothing of a refused change is stored, not even its other fields.
    expect(await presentedKey(owner.token, keyId)).toMatchObject({
      name: 'default',
      expiresAt,
      spendingCap: 5_000_000,
      allowedIps: ['127.0.0.0/8'],
      limits: { requestsPerMinute: 20 },
    });

    const tightened = await callApi('PATCH', `/keys/${keyId}`, owner.token, {
      expiresAt: expiresAt - 86_400_000,
      spendingCap: 1_000_000,
      allowedIps: ['127.0.0.1'],
      limits: { requestsPerMinute: 5 },
    });
    expect(tightened.status).toBe(200);
    // Back up to what the administrator allowed is still within it.
    const restored = await callApi('PATCH', `/keys/${keyId}`, owner.token, { spendingCap: 5_000_000 });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ spendingCap: 5_000_000, allowedIps: ['127.0.0.1'] });

    // When an administrator lifts a limit, it is the owner's again.
    expect((await callApi('PATCH', `/keys/${keyId}`, adminToken, { spendingCap: null })).status).toBe(200);
    expect((await callApi('PATCH', `/keys/${keyId}`, owner.token, { spendingCap: 9_000_000 })).status).toBe(200);
    expect((await callApi('PATCH', `/keys/${keyId}`, owner.token, { expiresAt: null })).status).toBe(403);
  });

  it("binds the owner's own key once an administrator edits it", async () => {
    const owner = await createOwner();
    const created = await callApi('POST', '/keys', owner.token, { group: owner.groupName });
    const keyId = created.body.id as string;
    // Before any administrator touches it, the owner sets and clears what they like.
    expect((await callApi('PATCH', `/keys/${keyId}`, owner.token, { allowedIps: ['10.0.0.1'] })).status).toBe(200);
    expect((await callApi('PATCH', `/keys/${keyId}`, owner.token, { allowedIps: [] })).status).toBe(200);

    expect((await callApi('PATCH', `/keys/${keyId}`, adminToken, { allowedIps: ['127.0.0.1'] })).status).toBe(200);
    const cleared = await callApi('PATCH', `/keys/${keyId}`, owner.token, { allowedIps: [] });
    expect(cleared.status).toBe(403);
    expect(cleared.body.error.message).toMatch(/An administrator limited this key to 127\.0\.0\.1/);
    expect((await presentedKey(owner.token, keyId)).allowedIps).toEqual(['127.0.0.1']);
  });
});

describe('the CLI, an administrator too', () => {
  it('binds the owner to the expiry it gives a key', async () => {
    const owner = await createOwner();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        ...['--import', 'tsx', 'src/cli/main.ts', 'key', 'create', '--user', owner.user.email],
        ...['--group', owner.groupName, '--expires-in-days', '2', '--json'],
      ],
      {
        env: {
          ...process.env,
          GATEWAY_DATABASE_URL: gateway.databaseUrl,
          GATEWAY_DATA_DIR: gateway.dataDirectory,
          GATEWAY_SECRET_KEY: secretKey,
        },
      },
    );
    const created = JSON.parse(stdout) as { id: string; expiresAt: number };
    const never = await callApi('PATCH', `/keys/${created.id}`, owner.token, { expiresAt: null });
    expect(never.status).toBe(403);
    expect(never.body.error.param).toBe('expiresAt');
    const sooner = await callApi('PATCH', `/keys/${created.id}`, owner.token, { expiresAt: created.expiresAt - 1 });
    expect(sooner.status).toBe(200);
  });
});

describe('keys per user', () => {
  it(`refuses a user's key past ${maxKeysPerUser}, even when requests race, but not an administrator's`, async () => {
    const owner = await createOwner();
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        callApi('POST', '/keys', owner.token, { group: owner.groupName, name: `racing-${index}` }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 201)).toHaveLength(maxKeysPerUser);
    const refusals = attempts.filter((attempt) => attempt.status !== 201);
    expect(refusals).toHaveLength(10 - maxKeysPerUser);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(400);
      expect(refusal.body.error.message).toMatch(/the most a user may hold/);
    }
    expect((await callApi('GET', '/keys', owner.token)).body.data).toHaveLength(maxKeysPerUser);

    const byAdmin = await callApi('POST', '/keys', adminToken, { userId: owner.user.id, group: owner.groupName });
    expect(byAdmin.status).toBe(201);
  });
});
