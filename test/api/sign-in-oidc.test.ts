// OpenID Connect sign-in end to end through a real OpenID Provider on loopback (oidc-provider): discovery, PKCE,
// state, nonce and a verified ID token, with the provider's own login and consent pages driven over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/accounts/password-hash.js';
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
          // Trusted for this test's own domain only; unset, an OpenID provider's email_verified is not trusted.
          emailTrust: { trustVerifiedEmail: true, emailDomains: ['example.test'] },
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
  fetchSite = 'same-origin',
): Promise<{ status: number; body: any }> {
  const response = await browser.send(`${gateway.url}/api${path}`, {
    method,
    headers: { 'sec-fetch-site': fetchSite, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: response.text ? JSON.parse(response.text) : undefined };
}

/**
 * Links `login` at the provider to the browser's signed-in user the way the console does: POST
 * /api/me/identities/link, then through the provider's pages; returns the callback URL, not yet visited.
 */
async function startLinking(browser: CookieBrowser, login: string): Promise<string> {
  const started = await callApi(browser, 'POST', '/me/identities/link', { provider: 'oidc', returnTo: '/settings' });
  expect(started.status).toBe(200);
  // Signed out at the provider, so it asks who to sign in as.
  browser.clearCookies(oidc.issuer);
  return driveOidcSignIn(browser, {
    startUrl: started.body.authorizationUrl,
    issuer: oidc.issuer,
    login,
    callbackPrefix: callbackPrefix(),
  });
}

/** Replaces one field of the sign-in attempt cookie, as a browser under an attacker's control could. */
function tamperWithAttempt(browser: CookieBrowser, field: 'nonce' | 'state' | 'returnPath', value: string): void {
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

  it('links by a trusted verified email only: never an unverified one, nor one outside the trusted domains', async () => {
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
    const [audit] = await gateway.store.listAuditEntries({ action: 'identity.link', targetId: existing.id, limit: 5 });
    expect(audit).toMatchObject({
      actorUserId: existing.id,
      details: { provider: 'oidc', linkedBy: 'verified email' },
    });

    for (const [label, email, emailVerified] of [
      ['unverified', `${uniqueName('unverified')}@example.test`, false],
      ['other domain', `${uniqueName('elsewhere')}@other.test`, true],
    ] as const) {
      const victim = await gateway.store.createUser({ email, displayName: 'Victim', role: 'user', passwordHash: null });
      const login = uniqueName('claimer');
      oidc.addAccount(login, { email, emailVerified, name: 'Claimer' });
      const claimer = new CookieBrowser();
      await signInWithOidc(claimer, login);
      const me = (await callApi(claimer, 'GET', '/me')).body.user;
      expect(me.id, label).not.toBe(victim.id);
      expect(me.email, label).toMatch(/^oidc-[0-9a-f]{16}@users\.invalid$/);
    }
  });

  it('never links a new identity to an administrator or a password account by email, however verified', async () => {
    for (const role of ['admin', 'user'] as const) {
      const name = uniqueName(`${role}-owner`);
      const owner = await gateway.store.createUser({
        email: `${name}@example.test`,
        displayName: 'Owner',
        role,
        passwordHash: await hashPassword('the owner password'),
      });
      const login = uniqueName('impostor');
      oidc.addAccount(login, { email: `${name.toUpperCase()}@EXAMPLE.test`, emailVerified: true, name: 'Impostor' });
      const impostor = new CookieBrowser();
      expect(await signInWithOidc(impostor, login), role).toBe('/sign-in?error=email_in_use');
      expect(impostor.cookie(gateway.url, 'gateway_session'), role).toBeUndefined();
      expect((await callApi(impostor, 'GET', '/me')).status, role).toBe(401);
      const { database } = createDatabase(gateway.config.databaseUrl);
      const identities = await database.selectFrom('identities').select('id').where('user_id', '=', owner.id).execute();
      await database.destroy();
      expect(identities, role).toEqual([]);
    }
  });

  it('returns only to paths of this gateway, checked after resolution at the start and again at the callback', async () => {
    const login = uniqueName('returns');
    oidc.addAccount(login, { email: `${login}@example.test`, emailVerified: true, name: 'R' });
    for (const returnTo of [
      '/.//evil.example/phish',
      '/..//evil.example/phish',
      '//evil.example/phish',
      '/\\evil.example/phish',
      '/%2f%2fevil.example/phish',
      '/%5cevil.example/phish',
      '/.%2f/evil.example/phish',
      '/\t/evil.example',
    ]) {
      const browser = new CookieBrowser();
      expect(await signInWithOidc(browser, login, returnTo), returnTo).toBe('/');
      browser.clearCookies(oidc.issuer);
    }
    // A return path changed in the attempt cookie after the start is checked again at the callback.
    const browser = new CookieBrowser();
    const callbackUrl = await driveOidcSignIn(browser, {
      startUrl: `${gateway.url}/api/auth/oidc/start?returnTo=%2Fkeys`,
      issuer: oidc.issuer,
      login,
      callbackPrefix: callbackPrefix(),
    });
    tamperWithAttempt(browser, 'returnPath', '/.//evil.example/phish');
    expect(landingOf(await browser.send(callbackUrl))).toBe('/');
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

  it('links a second provider account to the signed-in user by a POST, with an audit entry, and keeps the last way in', async () => {
    const first = uniqueName('first-way');
    const second = uniqueName('second-way');
    oidc.addAccount(first, { email: `${first}@example.test`, emailVerified: true, name: 'First' });
    oidc.addAccount(second, { email: `${second}@example.test`, emailVerified: false, name: 'Second' });
    const browser = new CookieBrowser();
    await signInWithOidc(browser, first);
    const userId = (await callApi(browser, 'GET', '/me')).body.user.id as string;
    const callbackUrl = await startLinking(browser, second);
    expect(landingOf(await browser.send(callbackUrl))).toBe('/settings');
    const identities = (await callApi(browser, 'GET', '/me/identities')).body.data as { id: string }[];
    expect(identities).toHaveLength(2);
    const [audit] = await gateway.store.listAuditEntries({ action: 'identity.link', targetId: userId, limit: 5 });
    expect(audit).toMatchObject({
      actorUserId: userId,
      details: { provider: 'oidc', displayName: 'Second', linkedBy: 'signed-in user' },
    });
    const viaSecond = new CookieBrowser();
    await signInWithOidc(viaSecond, second);
    expect((await callApi(viaSecond, 'GET', '/me')).body.user.id).toBe(userId);

    expect((await callApi(browser, 'DELETE', `/me/identities/${identities[0]!.id}`)).status).toBe(200);
    expect((await callApi(browser, 'DELETE', `/me/identities/${identities[1]!.id}`)).status).toBe(400);
    expect((await callApi(browser, 'GET', '/me/identities')).body.data).toHaveLength(1);
  });

  it('never links on a GET: the start URL visited while signed in signs in, it does not add the identity', async () => {
    const owner = uniqueName('get-owner');
    const stranger = uniqueName('get-stranger');
    oidc.addAccount(owner, { email: `${owner}@example.test`, emailVerified: true, name: 'Owner' });
    oidc.addAccount(stranger, { email: `${stranger}@example.test`, emailVerified: true, name: 'Stranger' });
    const browser = new CookieBrowser();
    await signInWithOidc(browser, owner);
    const ownerId = (await callApi(browser, 'GET', '/me')).body.user.id as string;
    // A page elsewhere sends the signed-in browser to the start URL; the provider signs in the stranger.
    browser.clearCookies(oidc.issuer);
    await signInWithOidc(browser, stranger);
    expect((await callApi(browser, 'GET', '/me')).body.user.id).not.toBe(ownerId);
    const ownerBrowser = new CookieBrowser();
    await signInWithOidc(ownerBrowser, owner);
    expect((await callApi(ownerBrowser, 'GET', '/me/identities')).body.data).toHaveLength(1);
  });

  it('starts linking only from the console itself: a cross-site POST is refused', async () => {
    const login = uniqueName('csrf-owner');
    oidc.addAccount(login, { email: `${login}@example.test`, emailVerified: true, name: 'Owner' });
    const browser = new CookieBrowser();
    await signInWithOidc(browser, login);
    const cookieBefore = browser.cookie(gateway.url, 'gateway_oauth');
    const crossSite = await callApi(browser, 'POST', '/me/identities/link', { provider: 'oidc' }, 'cross-site');
    expect(crossSite.status).toBe(403);
    expect(browser.cookie(gateway.url, 'gateway_oauth')).toBe(cookieBefore);
    const noCookie = await callApi(new CookieBrowser(), 'POST', '/me/identities/link', { provider: 'oidc' });
    expect(noCookie.status).toBe(401);
  });

  it('completes a link only in the session that started it', async () => {
    const owner = uniqueName('bound-owner');
    const other = uniqueName('bound-other');
    const extra = uniqueName('bound-extra');
    for (const login of [owner, other, extra])
      oidc.addAccount(login, { email: `${login}@example.test`, emailVerified: true, name: login });
    const ownerBrowser = new CookieBrowser();
    await signInWithOidc(ownerBrowser, owner);
    const otherBrowser = new CookieBrowser();
    await signInWithOidc(otherBrowser, other);
    const callbackUrl = await startLinking(ownerBrowser, extra);
    // The browser now holds another user's session (signed in again as someone else) when the callback arrives.
    ownerBrowser.setCookie(gateway.url, 'gateway_session', otherBrowser.cookie(gateway.url, 'gateway_session')!);
    expect(landingOf(await ownerBrowser.send(callbackUrl))).toBe('/sign-in?error=not_signed_in');
    expect((await callApi(otherBrowser, 'GET', '/me/identities')).body.data).toHaveLength(1);
    // The identity stayed unlinked: signing in with it makes its own account.
    const extraBrowser = new CookieBrowser();
    await signInWithOidc(extraBrowser, extra);
    expect((await callApi(extraBrowser, 'GET', '/me')).body.user.email).toBe(`${extra}@example.test`);
  });
});
