// GET /api/auth/session: a public, always-200 answer to "is this browser signed in?", so the console never needs a 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateConsoleToken, hashConsoleToken, sessionTokenPrefix } from '../../src/accounts/console-token.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { callConsoleApi } from './console-api-client.js';
import { request } from 'undici';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway?.close();
});

async function sessionToken(userId: string): Promise<string> {
  const token = generateConsoleToken(sessionTokenPrefix);
  await gateway.running.signIn.store.createSession({
    tokenHash: hashConsoleToken(token),
    userId,
    expiresAt: Date.now() + 3_600_000,
    userAgent: null,
    clientIp: null,
  });
  return token;
}

describe('GET /api/auth/session', () => {
  it('answers 200 signed out without a session, or with one that is not valid', async () => {
    expect(await callConsoleApi(gateway, 'GET', '/auth/session', undefined)).toMatchObject({
      status: 200,
      body: { signedIn: false, isAdmin: false },
    });
    expect(await callConsoleApi(gateway, 'GET', '/auth/session', 'gwses-not-a-session')).toMatchObject({
      status: 200,
      body: { signedIn: false },
    });
    const withCookie = await request(`${gateway.url}/api/auth/session`, {
      headers: { cookie: 'gateway_session=expired-or-forged' },
    });
    expect(withCookie.statusCode).toBe(200);
    expect(await withCookie.body.json()).toEqual({ signedIn: false, isAdmin: false });
  });

  it('says signed in, and whether as an administrator, for a live session', async () => {
    const user = await gateway.createUser('user');
    expect((await callConsoleApi(gateway, 'GET', '/auth/session', await sessionToken(user.id))).body).toEqual({
      signedIn: true,
      isAdmin: false,
    });
    const cookieAnswer = await request(`${gateway.url}/api/auth/session`, {
      headers: { cookie: `gateway_session=${await sessionToken(gateway.defaultUser.id)}` },
    });
    expect(await cookieAnswer.body.json()).toEqual({ signedIn: true, isAdmin: true });
  });
});
