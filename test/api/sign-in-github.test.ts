// GitHub sign-in end to end: the gateway, a loopback GitHub (test/doubles/github) and a cookie-keeping client that
// follows every redirect by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/accounts/password-hash.js';
import { createDatabase } from '../../src/storage/create-database.js';
import {
  createGithubUser,
  startGithubFake,
  type GithubFake,
  type GithubFakeUser,
} from '../doubles/github/start-github-fake.js';
import { totpCodeAt } from '../../src/accounts/totp.js';
import { CookieBrowser, type BrowserResponse } from '../helpers/cookie-browser.js';
import { startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';

let github: GithubFake;
let gateway: TestGateway;

beforeAll(async () => {
  github = await startGithubFake({ redirectUri: () => `${gateway.url}/api/auth/github/callback` });
  gateway = await startTestGateway({
    config: {
      signIn: {
        publicUrl: undefined,
        oidc: undefined,
        github: {
          clientId: github.clientId,
          clientSecret: github.clientSecret,
          baseUrl: github.url,
          apiUrl: github.url,
        },
      },
      defaultUserGroups: ['default'],
    },
  });
  await gateway.store.createModelGroup({ name: 'default', description: 'granted to new users', models: ['*'] });
});

afterAll(async () => {
  await gateway?.close();
  await github?.close();
});

/** Signs in through the GitHub fake as `user`; returns the hops and the final redirect's location path. */
async function signInWithGithub(
  browser: CookieBrowser,
  user: GithubFakeUser,
  returnTo = '/console/keys',
): Promise<{ hops: BrowserResponse[]; landedOn: string }> {
  github.signInAs(user);
  const hops = await browser.follow(`${gateway.url}/api/auth/github/start?returnTo=${encodeURIComponent(returnTo)}`, {
    until: (response) => response.url.startsWith(`${gateway.url}/api/auth/github/callback`),
  });
  const last = hops.at(-1)!;
  expect(last.status).toBe(302);
  const location = new URL(last.location!);
  return { hops, landedOn: location.pathname + location.search };
}

/** Links `user` to the browser's signed-in account as the console does (POST, then GitHub); the landing path. */
async function linkGithub(browser: CookieBrowser, user: GithubFakeUser): Promise<string> {
  github.signInAs(user);
  const started = await callApi(browser, 'POST', '/me/identities/link', {
    provider: 'github',
    returnTo: '/console/profile',
  });
  expect(started.status).toBe(200);
  const hops = await browser.follow(started.body.authorizationUrl as string, {
    until: (response) => response.url.startsWith(`${gateway.url}/api/auth/github/callback`),
  });
  const location = new URL(hops.at(-1)!.location!);
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

async function setUserStatus(userId: string, status: 'active' | 'disabled'): Promise<void> {
  const { database } = createDatabase(gateway.config.databaseUrl);
  await database.updateTable('users').set({ status }).where('id', '=', userId).execute();
  await database.destroy();
}

describe('GitHub sign-in', () => {
  it('lists GitHub among the providers, with password sign-in still possible', async () => {
    const { body } = await callApi(new CookieBrowser(), 'GET', '/auth/providers');
    expect(body).toEqual({
      providers: [{ id: 'github', name: 'GitHub', startUrl: '/api/auth/github/start' }],
      password: true,
    });
  });

  it('sends the user to GitHub with state and a PKCE S256 challenge, the attempt in a Lax cookie on /api/auth', async () => {
    const start = await new CookieBrowser().send(`${gateway.url}/api/auth/github/start`);
    expect(start.status).toBe(302);
    const authorize = new URL(start.location!);
    expect(authorize.origin + authorize.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${gateway.url}/api/auth/github/callback`);
    expect(String(start.headers['set-cookie'])).toMatch(
      /^gateway_oauth=[\w-]+; Path=\/api\/auth; HttpOnly; SameSite=Lax; Max-Age=600$/,
    );
  });

  it('creates the user at the first sign-in with the default groups, who can then create a key there; the second finds the same user', async () => {
    const githubUser = createGithubUser(`${uniqueName('first')}@example.test`);
    const browser = new CookieBrowser();
    const { hops, landedOn } = await signInWithGithub(browser, githubUser);
    expect(landedOn).toBe('/console/keys');
    const sessionCookie = [hops.at(-1)!.headers['set-cookie']]
      .flat()
      .find((line) => line?.startsWith('gateway_session=gwses-'));
    // Loopback over plain http: no Secure, so the browser keeps it.
    expect(sessionCookie).toMatch(/^gateway_session=gwses-[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(browser.cookie(gateway.url, 'gateway_oauth')).toBeUndefined();

    const me = await callApi(browser, 'GET', '/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: githubUser.emails[0]!.email, role: 'user' });
    const userId = me.body.user.id as string;
    expect((await gateway.store.listUserGroups(userId)).map((group) => group.name)).toEqual(['default']);
    const key = await callApi(browser, 'POST', '/keys', { group: 'default', name: 'from github' });
    expect(key.status).toBe(201);

    const again = new CookieBrowser();
    await signInWithGithub(again, githubUser);
    expect((await callApi(again, 'GET', '/me')).body.user.id).toBe(userId);
    expect(again.cookie(gateway.url, 'gateway_session')).not.toBe(browser.cookie(gateway.url, 'gateway_session'));
    const identities = await callApi(again, 'GET', '/me/identities');
    expect(identities.body).toMatchObject({
      hasPassword: false,
      data: [{ provider: 'github', email: githubUser.emails[0]!.email }],
    });
  });

  it('takes the primary verified email from /user/emails when /user shows none', async () => {
    const email = `${uniqueName('private')}@example.test`;
    const browser = new CookieBrowser();
    await signInWithGithub(browser, createGithubUser(email, { publicEmail: false }));
    expect((await callApi(browser, 'GET', '/me')).body.user.email).toBe(email);
  });

  it('links an existing account by a verified email, and never by an unverified one', async () => {
    const email = `${uniqueName('existing')}@example.test`;
    const existing = await gateway.store.createUser({
      email,
      displayName: 'Existing',
      role: 'user',
      passwordHash: null,
    });
    const verified = new CookieBrowser();
    await signInWithGithub(verified, createGithubUser(email));
    expect((await callApi(verified, 'GET', '/me')).body.user.id).toBe(existing.id);

    const otherEmail = `${uniqueName('victim')}@example.test`;
    const victim = await gateway.store.createUser({
      email: otherEmail,
      displayName: 'Victim',
      role: 'admin',
      passwordHash: await hashPassword('a long password'),
    });
    const unverified = new CookieBrowser();
    await signInWithGithub(unverified, createGithubUser(otherEmail, { verified: false }));
    const me = (await callApi(unverified, 'GET', '/me')).body.user;
    expect(me.id).not.toBe(victim.id);
    expect(me.role).toBe('user');
    expect(me.email).toMatch(/^github-[0-9a-f]{16}@users\.invalid$/);
  });

  it('does not sign a new GitHub account in to the administrator who has its verified email', async () => {
    const admin = await gateway.store.createUser({
      email: `${uniqueName('the-admin')}@example.test`,
      displayName: 'Admin',
      role: 'admin',
      passwordHash: await hashPassword('a long password'),
    });
    const impostor = new CookieBrowser();
    const { landedOn } = await signInWithGithub(impostor, createGithubUser(admin.email.toUpperCase()));
    expect(landedOn).toBe('/sign-in?error=email_in_use');
    expect(impostor.cookie(gateway.url, 'gateway_session')).toBeUndefined();
    expect((await callApi(impostor, 'GET', '/me')).status).toBe(401);
  });

  it('answers the sign-in page with an error code when the user declines, the code is bad, or the state does not match', async () => {
    github.switches.accessDenied = true;
    try {
      expect((await signInWithGithub(new CookieBrowser(), createGithubUser('declined@example.test'))).landedOn).toBe(
        '/sign-in?error=access_denied',
      );
    } finally {
      github.switches.accessDenied = false;
    }
    github.switches.badCode = true;
    try {
      expect((await signInWithGithub(new CookieBrowser(), createGithubUser('bad-code@example.test'))).landedOn).toBe(
        '/sign-in?error=provider_error',
      );
      expect(github.refusals.at(-1)).toBe('bad_verification_code');
    } finally {
      github.switches.badCode = false;
    }

    // A callback whose state is not the browser's attempt, and the replay of a callback already used.
    const browser = new CookieBrowser();
    github.signInAs(createGithubUser(`${uniqueName('replay')}@example.test`));
    const [start, authorize] = await browser.follow(`${gateway.url}/api/auth/github/start`, {
      until: (response) => response.url.startsWith(github.url),
    });
    expect(start!.status).toBe(302);
    const callback = new URL(authorize!.location!);
    const forged = new URL(callback);
    forged.searchParams.set('state', 'x'.repeat(43));
    expect((await browser.send(forged.toString())).location).toBe(`${gateway.url}/sign-in?error=invalid_state`);
    // The refused callback spent the attempt: even the genuine callback is refused now.
    expect((await browser.send(callback.toString())).location).toBe(`${gateway.url}/sign-in?error=invalid_state`);
    expect(browser.cookie(gateway.url, 'gateway_session')).toBeUndefined();
  });

  it('returns only to local paths', async () => {
    for (const returnTo of [
      '//evil.example/steal',
      'https://evil.example/',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
    ]) {
      const { landedOn } = await signInWithGithub(
        new CookieBrowser(),
        createGithubUser(`${uniqueName('return')}@example.test`),
        returnTo,
      );
      expect(landedOn, returnTo).toBe('/');
    }
  });

  it('refuses a disabled user', async () => {
    const githubUser = createGithubUser(`${uniqueName('disabled')}@example.test`);
    const browser = new CookieBrowser();
    await signInWithGithub(browser, githubUser);
    const userId = (await callApi(browser, 'GET', '/me')).body.user.id as string;
    await setUserStatus(userId, 'disabled');
    expect((await signInWithGithub(new CookieBrowser(), githubUser)).landedOn).toBe('/sign-in?error=account_disabled');
    expect((await callApi(browser, 'GET', '/me')).status).toBe(401);
  });

  it('links GitHub to a signed-in account, refuses one linked elsewhere, and never unlinks the last way in', async () => {
    const password = 'bootstrap admin password';
    const admin = await gateway.store.createUser({
      email: `${uniqueName('admin')}@example.test`,
      displayName: 'Admin',
      role: 'admin',
      passwordHash: await hashPassword(password),
    });
    const browser = new CookieBrowser();
    const login = await browser.send(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password }),
    });
    expect(login.status).toBe(200);
    const adminGithub = createGithubUser(`${uniqueName('admin-gh')}@example.test`);
    expect(await linkGithub(browser, adminGithub)).toBe('/console/profile');
    const linked = await callApi(browser, 'GET', '/me/identities');
    expect(linked.body).toMatchObject({ hasPassword: true, data: [{ provider: 'github' }] });
    // Signing in through GitHub now reaches the admin's account.
    const viaGithub = new CookieBrowser();
    await signInWithGithub(viaGithub, adminGithub);
    expect((await callApi(viaGithub, 'GET', '/me')).body.user.id).toBe(admin.id);

    // Another account's GitHub identity cannot be taken over by linking.
    const someoneElse = createGithubUser(`${uniqueName('someone')}@example.test`);
    const someoneBrowser = new CookieBrowser();
    await signInWithGithub(someoneBrowser, someoneElse);
    expect(await linkGithub(browser, someoneElse)).toBe('/sign-in?error=identity_in_use');

    // The social-only user cannot remove their only identity; the admin with a password can.
    const someoneIdentity = (await callApi(someoneBrowser, 'GET', '/me/identities')).body.data[0].id as string;
    const refused = await callApi(someoneBrowser, 'DELETE', `/me/identities/${someoneIdentity}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_request_error', param: 'identityId' });
    expect((await callApi(browser, 'DELETE', `/me/identities/${someoneIdentity}`)).status).toBe(404);
    const adminIdentity = linked.body.data[0].id as string;
    expect((await callApi(browser, 'DELETE', `/me/identities/${adminIdentity}`)).status).toBe(200);
    expect((await callApi(browser, 'GET', '/me/identities')).body.data).toEqual([]);
  });
});

describe('GitHub sign-in of an account with two-factor on', () => {
  it('ends in a pending second factor in this browser only, and a code finishes it at the return path', async () => {
    const githubUser = createGithubUser(`${uniqueName('two-factor')}@example.test`);
    const first = new CookieBrowser();
    await signInWithGithub(first, githubUser);
    const enrol = await callApi(first, 'POST', '/me/two-factor/enrol');
    const secret = enrol.body.secret as string;
    expect(
      (await callApi(first, 'POST', '/me/two-factor/confirm', { code: totpCodeAt(secret, Date.now()) })).status,
    ).toBe(200);

    const browser = new CookieBrowser();
    const { landedOn } = await signInWithGithub(browser, githubUser, '/console/usage');
    expect(landedOn).toBe('/sign-in?second_factor=1');
    expect(browser.cookie(gateway.url, 'gateway_session')).toBeUndefined();
    expect((await callApi(browser, 'GET', '/me')).status).toBe(401);
    const code = totpCodeAt(secret, Date.now() + 30_000);
    // Another browser holds no pending sign-in.
    expect((await callApi(new CookieBrowser(), 'POST', '/auth/two-factor', { code })).status).toBe(401);
    const done = await callApi(browser, 'POST', '/auth/two-factor', { code });
    expect(done.status).toBe(200);
    expect(done.body.returnPath).toBe('/console/usage');
    expect((await callApi(browser, 'GET', '/me')).body.user.email).toBe(githubUser.emails[0]!.email);
  });
});
