// PATCH /api/me (display name) and POST /api/me/password (current password checked on the sign-in limiter, argon2id,
// other sessions end).
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateConsoleToken, hashConsoleToken, sessionTokenPrefix } from '../../src/accounts/console-token.js';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { callApi, createSignedInUser, testPassword, type ApiAnswer } from '../payments/payment-test-api.js';

let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({ models: ['profile-model'] });
});

afterAll(async () => {
  await gateway?.close();
});

async function send(method: 'PATCH' | 'POST' | 'PUT', path: string, token: string, body: unknown): Promise<ApiAnswer> {
  const response = await request(`${gateway.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
}

async function logIn(email: string, password: string): Promise<ApiAnswer> {
  const response = await request(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.statusCode, body: await response.body.json() };
}

describe('PATCH /api/me', () => {
  it('renames the caller (trimmed) and refuses an empty name', async () => {
    const { token } = await createSignedInUser(gateway);
    const renamed = await send('PATCH', '/me', token, { displayName: '  Ada Lovelace ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user.displayName).toBe('Ada Lovelace');
    expect((await callApi(gateway, 'GET', '/me', token)).body.user.displayName).toBe('Ada Lovelace');
    const empty = await send('PATCH', '/me', token, { displayName: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.param).toBe('displayName');
  });
});

describe('POST /api/me/password', () => {
  it('changes the password with the right current one, ends the other sessions and keeps this one', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const other = (await logIn(user.email, testPassword)).body.token as string;
    const wrong = await send('POST', '/me/password', token, {
      currentPassword: 'not it at all',
      newPassword: 'a brand new passphrase',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.param).toBe('currentPassword');
    expect(
      await send('POST', '/me/password', token, { currentPassword: testPassword, newPassword: 'short' }).then(
        (answer) => answer.status,
      ),
    ).toBe(400);

    const changed = await send('POST', '/me/password', token, {
      currentPassword: testPassword,
      newPassword: 'a brand new passphrase',
    });
    expect(changed.body).toEqual({ changed: true, endedSessions: 1, disabledApiKeys: 0 });
    expect((await callApi(gateway, 'GET', '/balance', other)).status).toBe(401);
    expect((await callApi(gateway, 'GET', '/balance', token)).status).toBe(200);
    expect((await logIn(user.email, testPassword)).status).toBe(401);
    expect((await logIn(user.email, 'a brand new passphrase')).status).toBe(200);
    const stored = (await gateway.running.store.listUsers()).find((candidate) => candidate.id === user.id);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('locks like sign-in after five wrong current passwords, even for the right one', async () => {
    const { token } = await createSignedInUser(gateway);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(
        (
          await send('POST', '/me/password', token, {
            currentPassword: `wrong ${attempt}`,
            newPassword: 'another passphrase',
          })
        ).status,
      ).toBe(400);
    }
    const locked = await send('POST', '/me/password', token, {
      currentPassword: testPassword,
      newPassword: 'another passphrase',
    });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('rate_limit_exceeded');
  });

  it('refuses an account without a password', async () => {
    const user = await gateway.createUser('user');
    const token = generateConsoleToken(sessionTokenPrefix);
    await gateway.running.signIn.store.createSession({
      userId: user.id,
      tokenHash: hashConsoleToken(token),
      expiresAt: Date.now() + 60_000,
      userAgent: null,
      clientIp: null,
    });
    const refused = await send('POST', '/me/password', token, {
      currentPassword: 'anything at all',
      newPassword: 'a brand new passphrase',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('no password');
  });
});

describe('GET /api/users', () => {
  it('lists each user with granted groups, limits and whether they have a password', async () => {
    const { token: adminToken } = await createSignedInUser(gateway, 'admin');
    const { user } = await createSignedInUser(gateway);
    const group = await gateway.running.billing.exclusive(() =>
      gateway.running.store.createModelGroup({ name: `listed-${user.id}`, description: '', models: ['profile-model'] }),
    );
    await gateway.running.store.setUserGroups(user.id, [group.id]);
    expect(
      (
        await send('PUT', `/users/${user.id}/limits`, adminToken, {
          requestsPerMinute: 7,
          tokensPerMinute: null,
          maxConcurrentRequests: 0,
        })
      ).status,
    ).toBe(200);
    await gateway.running.billing.refresh(true);
    const listed = await callApi(gateway, 'GET', '/users', adminToken);
    const entry = listed.body.data.find((candidate: { id: string }) => candidate.id === user.id);
    expect(entry).toMatchObject({
      hasPassword: true,
      groups: [{ id: group.id, name: group.name }],
      limits: { requestsPerMinute: 7, tokensPerMinute: null, maxConcurrentRequests: 0 },
    });
  });
});
