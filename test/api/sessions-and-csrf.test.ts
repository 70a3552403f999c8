// Console sessions (list, revoke one, revoke the others, sign out), the CSRF rule for cookie-authenticated writes,
// and admin tokens that expire and can be listed and revoked.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenPrefix, generateConsoleToken, hashConsoleToken } from '../../src/accounts/console-token.js';
import { hashPassword } from '../../src/accounts/password-hash.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import { startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';

const password = 'a long enough password';
let gateway: TestGateway;
let user: UserRecord;

beforeAll(async () => {
  gateway = await startTestGateway();
  user = await gateway.store.createUser({
    email: `${uniqueName('sessions')}@example.test`,
    displayName: 'Sessions',
    role: 'user',
    passwordHash: await hashPassword(password),
  });
});

afterAll(async () => {
  await gateway?.close();
});

async function callApi(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: any; headers: Record<string, string | string[] | undefined> }> {
  const response = await request(`${gateway.url}/api${path}`, {
    method: method as 'GET',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** Signs in with the password from a given browser; returns the session cookie header value. */
async function signIn(userAgent: string): Promise<string> {
  const response = await callApi('POST', '/auth/login', { 'user-agent': userAgent }, { email: user.email, password });
  expect(response.status).toBe(200);
  const cookie = [response.headers['set-cookie']].flat().find((line) => line?.startsWith('gateway_session=gwses-'))!;
  expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
  return cookie.split(';')[0]!;
}

const sameOrigin = { 'sec-fetch-site': 'same-origin' };

describe('console sessions', () => {
  it('lists my sessions marking the current one, revokes one (its cookie then gets 401), the others, and signs out', async () => {
    const laptop = await signIn('laptop browser');
    const phone = await signIn('phone browser');
    const tablet = await signIn('tablet browser');
    const listed = await callApi('GET', '/auth/sessions', { cookie: laptop });
    expect(listed.status).toBe(200);
    const sessions = listed.body.data as { id: string; userAgent: string; current: boolean; clientIp: string }[];
    expect(sessions.map((session) => session.userAgent)).toEqual(['tablet browser', 'phone browser', 'laptop browser']);
    expect(sessions.filter((session) => session.current).map((session) => session.userAgent)).toEqual([
      'laptop browser',
    ]);
    expect(sessions[0]!.clientIp).toBe('127.0.0.1');

    const phoneSession = sessions.find((session) => session.userAgent === 'phone browser')!;
    expect(
      (await callApi('DELETE', `/auth/sessions/${phoneSession.id}`, { cookie: laptop, ...sameOrigin })).status,
    ).toBe(200);
    expect((await callApi('GET', '/me', { cookie: phone })).status).toBe(401);
    expect(
      (await callApi('DELETE', `/auth/sessions/${phoneSession.id}`, { cookie: laptop, ...sameOrigin })).status,
    ).toBe(404);

    const otherUser = await gateway.store.createUser({
      email: `${uniqueName('other')}@example.test`,
      displayName: 'Other',
      role: 'user',
      passwordHash: await hashPassword(password),
    });
    const otherLogin = await callApi('POST', '/auth/login', {}, { email: otherUser.email, password });
    const tabletSession = sessions.find((session) => session.userAgent === 'tablet browser')!;
    // Another user's session id is not mine to revoke.
    expect(
      (
        await callApi('DELETE', `/auth/sessions/${tabletSession.id}`, {
          authorization: `Bearer ${otherLogin.body.token}`,
        })
      ).status,
    ).toBe(404);

    expect((await callApi('DELETE', '/auth/sessions', { cookie: laptop, ...sameOrigin })).body).toEqual({ deleted: 1 });
    expect((await callApi('GET', '/me', { cookie: tablet })).status).toBe(401);
    expect((await callApi('GET', '/me', { cookie: laptop })).status).toBe(200);

    const logout = await callApi('POST', '/auth/logout', { cookie: laptop, ...sameOrigin });
    expect(logout.status).toBe(200);
    expect([logout.headers['set-cookie']].flat()).toContain(
      'gateway_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
    );
    expect((await callApi('GET', '/me', { cookie: laptop })).status).toBe(401);
  });
});

describe('CSRF protection of cookie-authenticated writes', () => {
  it('refuses cross-site and foreign-origin writes with the cookie, lets same-origin ones and Bearer calls through', async () => {
    const cookie = await signIn('csrf browser');
    const logoutAttempt = (headers: Record<string, string>) =>
      callApi('DELETE', '/auth/sessions', { cookie, ...headers });

    const crossSite = await logoutAttempt({ 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe('forbidden');
    expect((await logoutAttempt({ 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await logoutAttempt({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await logoutAttempt({})).status).toBe(403);
    // Reading is not a change of state.
    expect((await callApi('GET', '/me', { cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(200);

    expect((await logoutAttempt({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await logoutAttempt({ 'sec-fetch-site': 'none' })).status).toBe(200);
    expect((await logoutAttempt({ origin: gateway.url })).status).toBe(200);

    const login = await callApi('POST', '/auth/login', {}, { email: user.email, password });
    expect(
      (
        await callApi('DELETE', '/auth/sessions', {
          authorization: `Bearer ${login.body.token}`,
          'sec-fetch-site': 'cross-site',
          origin: 'https://evil.example',
        })
      ).status,
    ).toBe(200);
  });
});

describe('admin tokens', () => {
  it('refuses an expired token, lists tokens for admins and revokes one at once (audited)', async () => {
    const live = await createAdminTokenWithCli('--expires-in-days', '1');
    expect((await callApi('GET', '/users', { authorization: `Bearer ${live.token}` })).status).toBe(200);
    expect(live.expiresAt - Date.now()).toBeGreaterThan(23 * 3_600_000);

    const expired = generateConsoleToken(adminTokenPrefix);
    await gateway.running.billing.store.createAdminToken({
      tokenHash: hashConsoleToken(expired),
      name: 'expired',
      expiresAt: Date.now() - 1,
    });
    const refused = await callApi('GET', '/users', { authorization: `Bearer ${expired}` });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/expired/);

    const listed = await callApi('GET', '/admin/tokens', { authorization: `Bearer ${live.token}` });
    expect(listed.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: live.id, name: 'ops', expired: false }),
        expect.objectContaining({ name: 'expired', expired: true }),
      ]),
    );
    expect(JSON.stringify(listed.body)).not.toContain(live.token);
    const userLogin = await callApi('POST', '/auth/login', {}, { email: user.email, password });
    expect((await callApi('GET', '/admin/tokens', { authorization: `Bearer ${userLogin.body.token}` })).status).toBe(
      403,
    );

    const other = await createAdminTokenWithCli();
    expect(
      (await callApi('DELETE', `/admin/tokens/${other.id}`, { authorization: `Bearer ${live.token}` })).status,
    ).toBe(200);
    expect((await callApi('GET', '/users', { authorization: `Bearer ${other.token}` })).status).toBe(401);
    const audit = await callApi('GET', '/admin/audit-log?action=admin-token.revoke', {
      authorization: `Bearer ${live.token}`,
    });
    expect(audit.body.data).toMatchObject([
      // The token that acted is named by id and name, not only as "admin token".
      {
        action: 'admin-token.revoke',
        targetId: other.id,
        actorUserId: null,
        actorLabel: 'admin token ops',
        actorKind: 'admin_token',
        actorId: live.id,
      },
    ]);

    const cliList = JSON.parse((await runCli('admin', 'token', 'list', '--json')).stdout) as { id: string }[];
    expect(cliList.map((token) => token.id)).toContain(live.id);
    expect(cliList.map((token) => token.id)).not.toContain(other.id);
    await runCli('admin', 'token', 'revoke', live.id);
    expect((await callApi('GET', '/users', { authorization: `Bearer ${live.token}` })).status).toBe(401);
    // Four CLI processes, each compiling the sources with tsx: slow on a busy 2-core machine.
  }, 90_000);
});

function runCli(...args: string[]): Promise<{ stdout: string }> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    env: {
      ...process.env,
      GATEWAY_DATABASE_URL: gateway.config.databaseUrl,
      GATEWAY_DATA_DIR: gateway.config.dataDirectory,
      // The CLI checks its key against the database's, as a node does.
      GATEWAY_SECRET_KEY: gateway.config.secretKey,
    },
  });
}

async function createAdminTokenWithCli(
  ...options: string[]
): Promise<{ id: string; token: string; expiresAt: number }> {
  return JSON.parse((await runCli('admin', 'token', '--name', 'ops', '--json', ...options)).stdout) as {
    id: string;
    token: string;
    expiresAt: number;
  };
}
