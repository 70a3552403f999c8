// OpenID Connect sign-in in a real browser: Chromium clicks the console's provider button, goes through the real
// OpenID Provider's (oidc-provider on loopback) login and consent pages, and lands in the console signed in; a new
// user gets the default groups; sign-out; and a sign-in cancelled at the provider comes back to /sign-in with a message.
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOidcFake, type OidcFake } from '../doubles/oidc/start-oidc-provider.js';
import { startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';
import { describeInBrowser, englishLight, launchConsoleBrowser, type ConsoleBrowser } from './console-browser-harness.js';

const providerName = 'Company SSO';

/**
 * A context for the sign-in flow. oidc-provider's development pages @import a web font from fonts.googleapis.com;
 * the closed network cannot load it, so the browser gets an empty stylesheet instead of a console error.
 */
async function openSignInContext(chromium: ConsoleBrowser): Promise<BrowserContext> {
  const context = await chromium.openContext(englishLight);
  await context.route('https://fonts.googleapis.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
  return context;
}

describeInBrowser('OpenID Connect sign-in in Chromium', () => {
  let oidc: OidcFake;
  let gateway: TestGateway;
  let chromium: ConsoleBrowser;

  beforeAll(async () => {
    oidc = await startOidcFake();
    gateway = await startTestGateway({
      config: {
        signIn: { publicUrl: undefined, github: undefined, oidc: { issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: oidc.clientSecret, displayName: providerName, emailTrust: { trustVerifiedEmail: true, emailDomains: [] } } },
        defaultUserGroups: ['default'],
      },
    });
    oidc.registerClient(`${gateway.url}/api/auth/oidc/callback`);
    await gateway.store.createModelGroup({ name: 'default', description: 'granted to new users', models: ['*'] });
    chromium = await launchConsoleBrowser();
  });

  afterAll(async () => {
    await chromium?.close();
    await gateway?.close();
    await oidc?.close();
  });

  it('signs a new user in through the provider’s login and consent pages, with the default groups, then signs out', async () => {
    const login = uniqueName('grace');
    const email = `${login}@example.test`;
    oidc.addAccount(login, { email, emailVerified: true, name: 'Grace Hopper' });
    const context = await openSignInContext(chromium);
    const page = await context.newPage();

    await page.goto(`${gateway.url}/sign-in`);
    await page.getByRole('link', { name: `Continue with ${providerName}` }).click();

    await page.waitForURL((url) => url.origin === oidc.issuer);
    await page.getByRole('heading', { name: 'Sign-in' }).waitFor();
    await page.getByPlaceholder('Enter any login').fill(login);
    await page.getByPlaceholder('and password').fill('any password');
    await chromium.screenshot(page, 'oidc-provider-login-en-light');
    await page.getByRole('button', { name: 'Sign-in' }).click();

    await page.getByRole('heading', { name: 'Authorize' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(`${gateway.url}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect.poll(() => page.getByTestId('signed-in-as').textContent()).toBe(email);
    await chromium.screenshot(page, 'oidc-signed-in-dashboard-en-light');

    const user = await gateway.store.findUserByEmail(email);
    expect(user).toMatchObject({ displayName: 'Grace Hopper', role: 'user' });
    expect((await gateway.store.listUserGroups(user!.id)).map((group) => group.name)).toEqual(['default']);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${gateway.url}/sign-in`);
    await page.getByRole('link', { name: `Continue with ${providerName}` }).waitFor();
    expect(await page.evaluate<{ signedIn: boolean }>('fetch("/api/auth/session").then((answer) => answer.json())')).toMatchObject({ signedIn: false });
    await context.close();
    expect(chromium.errors).toEqual([]);
  }, 60_000);

  it('comes back to the sign-in page with a message when the person cancels at the provider', async () => {
    const login = uniqueName('cancel');
    oidc.addAccount(login, { email: `${login}@example.test`, emailVerified: true, name: 'Changed Mind' });
    const context = await openSignInContext(chromium);
    const page = await context.newPage();

    await page.goto(`${gateway.url}/sign-in`);
    await page.getByRole('link', { name: `Continue with ${providerName}` }).click();
    await page.waitForURL((url) => url.origin === oidc.issuer);
    await page.getByPlaceholder('Enter any login').fill(login);
    await page.getByPlaceholder('and password').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('heading', { name: 'Authorize' }).waitFor();
    await page.getByRole('link', { name: '[ Cancel ]' }).click();

    await page.waitForURL(`${gateway.url}/sign-in?error=access_denied`);
    await page.getByText('Sign-in was cancelled.').waitFor();
    await chromium.screenshot(page, 'oidc-cancelled-en-light');
    expect(await gateway.store.findUserByEmail(`${login}@example.test`)).toBeUndefined();
    await context.close();
    expect(chromium.errors).toEqual([]);
  }, 60_000);
});
