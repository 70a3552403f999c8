// An admin disables a user: keys stop, sessions end, sign-in is refused; enabling brings keys and sign-in back.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import { callConsoleApi, createSessionToken } from './console-api-client.js';

const model = 'disable-model';
const password = 'correct horse battery staple';
let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: [model], prices: [createUnitPrice(model)] });
});

afterAll(async () => {
  await gateway?.close();
});

async function signIn(email: string): Promise<number> {
  const response = await request(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  await response.body.dump();
  return response.statusCode;
}

async function chatStatus(secret: string): Promise<number> {
  return gateway
    .client(secret)
    .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
    .then(
      () => 200,
      (error: { status?: number }) => error.status ?? 0,
    );
}

describe('disabling a user', () => {
  it('stops their keys, ends their sessions and refuses their sign-in until an admin enables them again', async () => {
    const admin = await gateway.createUser('admin', password);
    const adminToken = await createSessionToken(gateway, admin.id);
    const user = await gateway.createUser('user', password);
    await gateway.topUp(user, 1_000_000);
    const { secret } = await gateway.createKey(user);
    const userSession = await createSessionToken(gateway, user.id);
    expect(await chatStatus(secret)).toBe(200);
    expect((await callConsoleApi(gateway, 'GET', '/me', userSession)).status).toBe(200);

    const disabled = await callConsoleApi(gateway, 'POST', `/users/${user.id}/disable`, adminToken);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: user.id, status: 'disabled' });

    expect(await chatStatus(secret)).toBe(401);
    expect((await callConsoleApi(gateway, 'GET', '/me', userSession)).status).toBe(401);
    expect(await signIn(user.email)).toBe(401);
    const { createDatabase } = await import('../../src/storage/create-database.js');
    const { database } = createDatabase(gateway.databaseUrl);
    expect(
      await database.selectFrom('console_sessions').select('token_hash').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
    await database.destroy();

    const enabled = await callConsoleApi(gateway, 'POST', `/users/${user.id}/enable`, adminToken);
    expect(enabled.body).toMatchObject({ id: user.id, status: 'active' });
    expect(await chatStatus(secret)).toBe(200);
    expect(await signIn(user.email)).toBe(200);

    const audit = await callConsoleApi(gateway, 'GET', `/admin/audit-log?targetId=${user.id}`, adminToken);
    expect((audit.body.data as Array<{ action: string }>).map((entry) => entry.action).slice(0, 2)).toEqual([
      'user.enable',
      'user.disable',
    ]);
  });

  it('is for admins only, and an admin cannot disable themself', async () => {
    const admin = await gateway.createUser('admin');
    const adminToken = await createSessionToken(gateway, admin.id);
    const user = await gateway.createUser('user');
    const userToken = await createSessionToken(gateway, user.id);
    expect((await callConsoleApi(gateway, 'POST', `/users/${admin.id}/disable`, userToken)).status).toBe(403);
    const self = await callConsoleApi(gateway, 'POST', `/users/${admin.id}/disable`, adminToken);
    expect(self.status).toBe(400);
    expect((await callConsoleApi(gateway, 'GET', '/me', adminToken)).status).toBe(200);
    expect((await callConsoleApi(gateway, 'POST', '/users/usr_missing/disable', adminToken)).status).toBe(404);
  });
});
