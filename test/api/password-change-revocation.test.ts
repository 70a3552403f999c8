// POST /api/me/password ends the other sessions unless asked not to, and with revoke_api_keys disables the user's keys
// at once; the audit log records the change; on SQLite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import {
  createPostgresTestDatabaseUrl,
  shouldRunPostgresTests,
  type PostgresTestDatabase,
} from '../helpers/postgres-test-database.js';
import { callApi, createSignedInUser, testPassword } from '../payments/payment-test-api.js';
import { createSessionToken } from './console-api-client.js';

const model = 'revocation-model';
const newPassword = 'a brand new passphrase';

describe.each([
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
] as const)('password change revocation on $name', ({ postgres }) => {
  const skip = postgres && !shouldRunPostgresTests();
  let gateway: BillingTestGateway;
  let database: PostgresTestDatabase | undefined;

  beforeAll(async () => {
    if (skip) return;
    database = postgres ? await createPostgresTestDatabaseUrl() : undefined;
    gateway = await startBillingTestGateway({
      models: [model],
      prices: [createUnitPrice(model)],
      ...(database ? { databaseUrl: database.url } : {}),
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
  });

  async function chatStatus(secret: string): Promise<number> {
    return gateway
      .client(secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => 200,
        (error: { status?: number }) => error.status ?? 0,
      );
  }

  it.skipIf(skip)('with revoke_api_keys the keys stop at once; other sessions end by default', async () => {
    const { user, token } = await createSignedInUser(gateway);
    await gateway.topUp(user, 1_000_000);
    const { secret, apiKeyId } = await gateway.createKey(user);
    const other = await createSessionToken(gateway, user.id);
    expect(await chatStatus(secret)).toBe(200);

    const changed = await callApi(gateway, 'POST', '/me/password', token, {
      currentPassword: testPassword,
      newPassword,
      revoke_api_keys: true,
    });
    expect(changed.body).toEqual({ changed: true, endedSessions: 1, disabledApiKeys: 1 });
    expect(await chatStatus(secret)).toBe(401);
    expect((await callApi(gateway, 'GET', '/me', other)).status).toBe(401);
    expect((await callApi(gateway, 'GET', '/me', token)).status).toBe(200);
    const keys = await callApi(gateway, 'GET', '/keys', token);
    expect((keys.body.data as Array<{ id: string; status: string }>).find((key) => key.id === apiKeyId)?.status).toBe(
      'disabled',
    );

    const admin = await createSignedInUser(gateway, 'admin');
    const audit = await callApi(gateway, 'GET', `/admin/audit-log?targetId=${user.id}`, admin.token);
    expect(audit.body.data[0]).toMatchObject({
      action: 'user.password.change',
      details: { endedSessions: 1, disabledApiKeys: 1 },
    });
  });

  it.skipIf(skip)('keeps the keys by default and the other sessions when revoke_other_sessions is false', async () => {
    const { user, token } = await createSignedInUser(gateway);
    await gateway.topUp(user, 1_000_000);
    const { secret } = await gateway.createKey(user);
    const other = await createSessionToken(gateway, user.id);
    const changed = await callApi(gateway, 'POST', '/me/password', token, {
      currentPassword: testPassword,
      newPassword,
      revoke_other_sessions: false,
    });
    expect(changed.body).toEqual({ changed: true, endedSessions: 0, disabledApiKeys: 0 });
    expect((await callApi(gateway, 'GET', '/me', other)).status).toBe(200);
    expect(await chatStatus(secret)).toBe(200);
  });
});
