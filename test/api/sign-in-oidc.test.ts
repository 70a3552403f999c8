// OpenID Connect sign-in end to end through a real OpenID Provider on loopback (oidc-provider): discovery, PKCE,
// state, nonce and a verified ID token, with the provider's own login and consent pages driven over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/storage/create-database.js';
import { driveOidcSignIn } from '../doubles/oidc/drive-oidc-sign-in.js';
import { startOidcFake, type OidcFake } from '../doubles/oidc/start-oidc-provider.js';
import { CookieBrowser, type BrowserResponse } from '../helpers/cookie-browser.js';
import { startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';

let oidc: OidcFake;
let gateway: TestGateway;

beforeAll(async () => {
  oidc = await startOidcFake();
  gateway = await startTestGateway({
    config: {
      signIn: {
        publicUrl: undefined,
        github: undefined,
        oidc: {
          issuer: oidc.issuer,
          clientId: oidc.clientId,
          clientSecret: oidc.clientSecret,
          displayName: 'Company SSO',
        },
      },
      defaultUserGroups: ['default'],
    },
  });
  oidc.registerClient(`${gateway.url}/api/auth/oidc/callback`);
  await gateway.store.createModelGroup({ name: 'default', description: 'granted to new users', models: ['*'] });
});

afterAll(async () => {
  await gateway?.close();
  await oidc?.close();
});

const callbackPrefix = () => `${gateway.url}/api/auth/oidc/callback`;

/** Signs in as `login` at the provider; returns where the gateway's callback sent the browser (path and query). */
async function signInWithOidc(browser: CookieBrowser, login: string, returnTo = '/console'): Promise<string> {
  const callbackUrl = await driveOidcSignIn(browser, {
    startUrl: `${gateway.url}/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`,
    issuer: oidc.issuer,
    login,
    callbackPrefix: callbackPrefix(),
  });
  return landingOf(await browser.send(callbackUrl));
}

function landingOf(callback: BrowserResponse): string {
  expect(callback.status).toBe(302);
  const location = new URL(callback.location!);
  return location.pathname + location.search;
}

async function callApi(
  browser: CookieBrowser,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await browser.send(`${gateway.url}/api${path}`, {
    method,
    headers: { 'sec-fetch-site': 'same-origin', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: response.text ? JSON.parse(response.text) : undefined };
}

/** Replaces one field of the sign-in attempt cookie, as a browser under an attacker's control could. */
function tamperWithAttempt(browser: CookieBrowser, field: 'nonce' | 'state', value: string): void {
  const attempt = JSON.parse(
    Buffer.from(browser.cookie(gateway.url, 'gateway_oauth')!, 'base64url').toString('utf8'),
  ) as Record<string, unknown>;
  browser.setCookie(
    gateway.url,
    'gateway_oauth',
    Buffer.from(JSON.stringify({ ...attempt, [field]: value })).toString('base64url'),
    '/api/auth',
  );
}

describe('OpenID Connect sign-in', () => {
  it('lists the provider under its configured name', async () => {
    expect((await callApi(new CookieBrowser(), 'GET', '/auth/providers')).body.providers).toEqual([
      { id: 'oidc', name: 'Company SSO', startUrl: '/api/auth/oidc/start' },
    ]);
    // GitHub is not configured here.
    expect((await new CookieBrowser().send(`${gateway.url}/api/auth/github/start`)).location).toBe(
      `${gateway.url}/sign-in?error=provider_not_configured`,
    );
    expect((await new CookieBrowser().send(`${gateway.url}/api/auth/gitlab/start`)).status).toBe(404);
  });

  it('creates the user at the first sign-in, finds it at the second, and identifies it by issuer and subject', async () => {
    const login = uniqueName('alice');
    oidc.addAccount(login, { email: `${login}@example.test`, emailVerified: true, name: 'Alice' });
    const browser = new CookieBrowser();
    expect(await signInWithOidc(browser, login, '/console/usage')).toBe('/console/usage');
    const me = await callApi(browser, 'GET', '/me');
    expect(me.body.user).toMatchObject({ email: `${login}@example.test`, displayName: 'Alice', role: 'user' });
    expect((await gateway.store.listUserGroups(me.body.user.id)).map((group) => group.name)).toEqual(['default']);
    expect((await callApi(browser, 'POST', '/keys', { group: 'default' })).status).toBe(201);
    expect((await callApi(browser, 'GET', '/me/identities')).body.data).toMatchObject([
      { provider: 'oidc', email: `${login}@example.test` },
    ]);
    const { database } = createDatabase(gateway.config.databaseUrl);
    const stored = await database
      .selectFrom('identities')
      .select(['provider', 'subject'])
      .where('user_id', '=', me.body.user.id)
      .execute();
    await database.destroy();
    expect(stored).toEqual([{ provider: 'oidc', subject: `${oidc.issuer} ${login}` }]);

    const again = new CookieBrowser();
    await signInWithOidc(again, login);
    expect((await callApi(again, 'GET', '/me')).body.user.id).toBe(me.body.user.id);
  });

  it('links by a verified email and refuses to link by an unverified one', async () => {
    const verifiedLogin = uniqueName('verified');
    const existing = await gateway.store.createUser({
      email: `${verifiedLogin}@example.test`,
      displayName: 'Existing',
      role: 'user',
      passwordHash: null,
    });
    oidc.addAccount(verifiedLogin, { email: existing.email, emailVerified: true, name: 'V' });
    const verified = new CookieBrowser();
    await signInWithOidc(verified, verifiedLogin);
    expect((await callApi(verified, 'GET', '/me')).body.user.id).toBe(existing.id);

    const unverifiedLogin = uniqueName('unverified');
    const victim = await gateway.store.createUser({
      email: `${unverifiedLogin}@example.test`,
      displayName: 'Victim',
      role: 'user',
      passwordHash: null,
    });
    oidc.addAccount(unverifiedLogin, { email: victim.email, emailVerified: false, name: 'U' });
    const unverified = new CookieBrowser();
    await signInWithOidc(unverified, unverifiedLogin);
    const me = (await callApi(unverified, 'GET', '/me')).body.user;
    expect(me.id).not.toBe(victim.id);
    expect(me.email).toMatch(/^oidc-[0-9a-f]{16}@users\.invalid$/);
  });

  it("refuses an ID token whose nonce is not the attempt's, a callback whose state is not, and a replayed callback", async () => {
    const login = uniqueName('nonce');
    oidc.addAccount(login, { email: `${login}@example.test`, emailVerified: true, name: 'N' });
    const expected = { nonce: '/sign-in?error=provider_error', state: '/sign-in?error=invalid_state' };
    for (const field of ['nonce', 'state'] as const) {
      const browser = new CookieBrowser();
      const callbackUrl = await driveOidcSignIn(browser, {
        startUrl: `${gateway.url}/api/auth/oidc/start`,
        issuer: oidc.issuer,
        login,
        callbackPrefix: callbackPrefix(),
      });
      tamperWithAttempt(browser, field, 'n'.repeat(43));
      expect(landingOf(await browser.send(callbackUrl)), field).toBe(expected[field]);
      expect(browser.cookie(gateway.url, 'gateway_session')).toBeUndefined();
    }

    const browser = new CookieBrowser();
    const callbackUrl = await driveOidcSignIn(browser, {
      startUrl: `${gateway.url}/api/auth/oidc/start`,
      issuer: oidc.issuer,
      login,
      callbackPrefix: callbackPrefix(),
    });
    expect(landingOf(await browser.send(callbackUrl))).toBe('/');
    expect(landingOf(await browser.send(callbackUrl))).toBe('/sign-in?error=invalid_state');
  });

  it('links a second provider account to the signed-in user and keeps the last way in', async () => {
    const first = uniqueName('first-way');
    const second = uniqueName('second-way');
    oidc.addAccount(first, { email: `${first}@example.test`, emailVerified: true, name: 'First' });
    oidc.addAccount(second, { email: `${second}@example.test`, emailVerified: false, name: 'Second' });
    const browser = new CookieBrowser();
    await signInWithOidc(browser, first);
    const userId = (await callApi(browser, 'GET', '/me')).body.user.id as string;
    // Starting again while signed in (at the gateway; signed out at the provider) links the second provider account.
    browser.clearCookies(oidc.issuer);
    expect(await signInWithOidc(browser, second, '/console/profile')).toBe('/console/profile');
    const identities = (await callApi(browser, 'GET', '/me/identities')).body.data as { id: string }[];
    expect(identities).toHaveLength(2);
    const viaSecond = new CookieBrowser();
    await signInWithOidc(viaSecond, second);
    expect((await callApi(viaSecond, 'GET', '/me')).body.user.id).toBe(userId);

    expect((await callApi(browser, 'DELETE', `/me/identities/${identities[0]!.id}`)).status).toBe(200);
    expect((await callApi(browser, 'DELETE', `/me/identities/${identities[1]!.id}`)).status).toBe(400);
    expect((await callApi(browser, 'GET', '/me/identities')).body.data).toHaveLength(1);
  });
});
