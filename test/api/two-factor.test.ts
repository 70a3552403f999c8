// TOTP two-factor sign-in: enrolment, the second step after a password, recovery codes, reuse and lockout,
// turning it off, and GATEWAY_REQUIRE_ADMIN_TWO_FACTOR; on SQLite and on PostgreSQL.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '../../src/accounts/totp.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import {
  createPostgresTestDatabaseUrl,
  shouldRunPostgresTests,
  type PostgresTestDatabase,
} from '../helpers/postgres-test-database.js';
import { callApi, createSignedInUser, testPassword, type ApiAnswer } from '../payments/payment-test-api.js';

interface LogInAnswer extends ApiAnswer {
  /** the second-factor cookie as a Cookie header value, when the answer set one */
  secondFactorCookie: string | undefined;
}

async function logIn(gateway: BillingTestGateway, email: string, password = testPassword): Promise<LogInAnswer> {
  const response = await request(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const setCookie = response.headers['set-cookie'];
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
  const secondFactor = cookies.find((cookie) => cookie.startsWith('gateway_second_factor='));
  return {
    status: response.statusCode,
    body: await response.body.json(),
    secondFactorCookie: secondFactor?.split(';')[0],
  };
}

async function finishSignIn(
  gateway: BillingTestGateway,
  cookie: string | undefined,
  body: unknown,
): Promise<ApiAnswer> {
  const response = await request(`${gateway.url}/api/auth/two-factor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie === undefined ? {} : { cookie }) },
    body: JSON.stringify(body),
  });
  return { status: response.statusCode, body: await response.body.json() };
}

/** Enrols and confirms two-factor for a signed-in user; returns the secret and the recovery codes. */
async function enableTwoFactor(
  gateway: BillingTestGateway,
  token: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const enrol = await callApi(gateway, 'POST', '/me/two-factor/enrol', token);
  expect(enrol.status).toBe(200);
  const secret = enrol.body.secret as string;
  const confirmed = await callApi(gateway, 'POST', '/me/two-factor/confirm', token, {
    code: totpCodeAt(secret, Date.now()),
  });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

async function auditActions(gateway: BillingTestGateway, adminToken: string, userId: string): Promise<string[]> {
  const audit = await callApi(gateway, 'GET', `/admin/audit-log?targetId=${userId}`, adminToken);
  return (audit.body.data as Array<{ action: string }>).map((entry) => entry.action);
}

const databases = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
] as const;

describe.each(databases)('two-factor sign-in on $name', ({ postgres }) => {
  const skip = postgres && !shouldRunPostgresTests();
  let gateway: BillingTestGateway;
  let database: PostgresTestDatabase | undefined;
  let adminToken: string;

  beforeAll(async () => {
    if (skip) return;
    database = postgres ? await createPostgresTestDatabaseUrl() : undefined;
    gateway = await startBillingTestGateway({
      models: ['two-factor-model'],
      ...(database ? { databaseUrl: database.url } : {}),
    });
    adminToken = (await createSignedInUser(gateway, 'admin')).token;
  });

  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
  });

  it.skipIf(skip)('turns on only with a correct code, seals the secret and shows ten recovery codes once', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const enrol = await callApi(gateway, 'POST', '/me/two-factor/enrol', token);
    expect(enrol.body.otpauthUri).toContain(`secret=${enrol.body.secret as string}`);
    expect(enrol.body.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect((await callApi(gateway, 'GET', '/me/two-factor', token)).body).toMatchObject({ enabled: false });
    // Not on yet: a password still signs in alone.
    expect((await logIn(gateway, user.email)).body.token).toEqual(expect.any(String));

    const wrong = await callApi(gateway, 'POST', '/me/two-factor/confirm', token, { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.param).toBe('code');
    const confirmed = await callApi(gateway, 'POST', '/me/two-factor/confirm', token, {
      code: totpCodeAt(enrol.body.secret as string, Date.now()),
    });
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect((await callApi(gateway, 'GET', '/me/two-factor', token)).body).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    // A second enrolment would replace a working secret: refused while on.
    expect((await callApi(gateway, 'POST', '/me/two-factor/enrol', token)).status).toBe(400);

    const { createDatabase } = await import('../../src/storage/create-database.js');
    const opened = createDatabase(gateway.databaseUrl);
    const row = await opened.database
      .selectFrom('two_factor_settings')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    const codes = await opened.database
      .selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    await opened.database.destroy();
    expect(row.sealed_secret).toMatch(/^v2:/);
    expect(row.sealed_secret).not.toContain(enrol.body.secret);
    expect(codes.map((code) => code.code_hash)).not.toContain(confirmed.body.recoveryCodes[0]);
    expect(await auditActions(gateway, adminToken, user.id)).toContain('two_factor.enable');
  });

  it.skipIf(skip)('asks for a code after the password, refuses a reused code and another browser', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const { secret } = await enableTwoFactor(gateway, token);

    const first = await logIn(gateway, user.email);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ twoFactorRequired: true, expiresAt: expect.any(Number) });
    expect(first.secondFactorCookie).toBeDefined();

    // The code confirming enrolment was for this very step: using it again is refused.
    const reused = await finishSignIn(gateway, first.secondFactorCookie, { code: totpCodeAt(secret, Date.now()) });
    expect(reused.status).toBe(401);
    const nextCode = totpCodeAt(secret, Date.now() + 30_000);
    // Without the browser's cookie nothing is waiting.
    expect((await finishSignIn(gateway, undefined, { code: nextCode })).status).toBe(401);
    const done = await finishSignIn(gateway, first.secondFactorCookie, { code: nextCode });
    expect(done.status).toBe(200);
    expect(done.body.user.id).toBe(user.id);
    expect((await callApi(gateway, 'GET', '/me', done.body.token as string)).status).toBe(200);
    // The challenge is spent, and the same code does not work twice.
    expect((await finishSignIn(gateway, first.secondFactorCookie, { code: nextCode })).status).toBe(401);
    const second = await logIn(gateway, user.email);
    expect((await finishSignIn(gateway, second.secondFactorCookie, { code: nextCode })).status).toBe(401);
  });

  it.skipIf(skip)('takes each recovery code once, and audits its use', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const { recoveryCodes } = await enableTwoFactor(gateway, token);
    const [recoveryCode] = recoveryCodes as [string];
    const pending = await logIn(gateway, user.email);
    const done = await finishSignIn(gateway, pending.secondFactorCookie, { recoveryCode: recoveryCode.toUpperCase() });
    expect(done.status).toBe(200);
    expect((await callApi(gateway, 'GET', '/me/two-factor', token)).body.recoveryCodesLeft).toBe(9);
    const again = await logIn(gateway, user.email);
    expect((await finishSignIn(gateway, again.secondFactorCookie, { recoveryCode })).status).toBe(401);
    expect(await auditActions(gateway, adminToken, user.id)).toContain('two_factor.recovery_code.use');
  });

  it.skipIf(skip)('makes new recovery codes with a current code: the old ones stop working, audited', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const { secret, recoveryCodes: oldCodes } = await enableTwoFactor(gateway, token);
    const wrong = await callApi(gateway, 'POST', '/me/two-factor/recovery-codes', token, { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.param).toBe('code');
    const renewed = await callApi(gateway, 'POST', '/me/two-factor/recovery-codes', token, {
      code: totpCodeAt(secret, Date.now() + 30_000),
    });
    expect(renewed.status).toBe(200);
    const newCodes = renewed.body.recoveryCodes as string[];
    expect(newCodes).toHaveLength(10);
    expect(newCodes.filter((code) => oldCodes.includes(code))).toEqual([]);
    expect((await callApi(gateway, 'GET', '/me/two-factor', token)).body.recoveryCodesLeft).toBe(10);

    const withOld = await logIn(gateway, user.email);
    expect((await finishSignIn(gateway, withOld.secondFactorCookie, { recoveryCode: oldCodes[0] })).status).toBe(401);
    const withNew = await logIn(gateway, user.email);
    expect((await finishSignIn(gateway, withNew.secondFactorCookie, { recoveryCode: newCodes[0] })).status).toBe(200);
    expect(await auditActions(gateway, adminToken, user.id)).toContain('two_factor.recovery_codes.regenerate');

    // Without two-factor on there is nothing to renew.
    const other = await createSignedInUser(gateway);
    expect(
      (await callApi(gateway, 'POST', '/me/two-factor/recovery-codes', other.token, { code: '123456' })).status,
    ).toBe(400);
  });

  it.skipIf(skip)('locks after five wrong codes like the password lockout, even for the right code', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const { secret } = await enableTwoFactor(gateway, token);
    const pending = await logIn(gateway, user.email);
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await finishSignIn(gateway, pending.secondFactorCookie, { code: '000000' })).status).toBe(401);
    const locked = await finishSignIn(gateway, pending.secondFactorCookie, {
      code: totpCodeAt(secret, Date.now() + 30_000),
    });
    expect(locked.status).toBe(429);
  });

  it.skipIf(skip)(
    'turns off with the password (not a wrong one nor a wrong code), then the password alone signs in',
    async () => {
      const { user, token } = await createSignedInUser(gateway);
      await enableTwoFactor(gateway, token);
      const wrong = await callApi(gateway, 'POST', '/me/two-factor/disable', token, { password: 'not the password' });
      expect(wrong.status).toBe(400);
      const wrongCode = await callApi(gateway, 'POST', '/me/two-factor/disable', token, { code: '000000' });
      expect(wrongCode.status).toBe(400);
      expect(wrongCode.body.error.param).toBe('code');
      expect((await callApi(gateway, 'GET', '/me/two-factor', token)).body.enabled).toBe(true);
      const off = await callApi(gateway, 'POST', '/me/two-factor/disable', token, { password: testPassword });
      expect(off.body).toEqual({ enabled: false });
      expect((await logIn(gateway, user.email)).body.token).toEqual(expect.any(String));
      expect(await auditActions(gateway, adminToken, user.id)).toContain('two_factor.disable');
    },
  );
});

describe('GATEWAY_REQUIRE_ADMIN_TWO_FACTOR=true', () => {
  let gateway: BillingTestGateway;

  beforeAll(async () => {
    gateway = await startBillingTestGateway({
      models: ['required-model'],
      config: { signIn: { publicUrl: undefined, github: undefined, oidc: undefined, requireAdminTwoFactor: true } },
    });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('lets an admin without two-factor only set it up, and then everything; users are not asked', async () => {
    const { token } = await createSignedInUser(gateway, 'admin');
    const refused = await callApi(gateway, 'GET', '/users', token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.param).toBe('two_factor');
    expect((await callApi(gateway, 'GET', '/me', token)).status).toBe(200);
    expect((await callApi(gateway, 'GET', '/me/two-factor', token)).body).toMatchObject({
      enabled: false,
      required: true,
    });
    await enableTwoFactor(gateway, token);
    expect((await callApi(gateway, 'GET', '/users', token)).status).toBe(200);
    expect((await callApi(gateway, 'POST', '/me/two-factor/disable', token, { password: testPassword })).status).toBe(
      403,
    );

    const user: { token: string; user: UserRecord } = await createSignedInUser(gateway);
    expect((await callApi(gateway, 'GET', '/keys', user.token)).status).toBe(200);
  });
});
