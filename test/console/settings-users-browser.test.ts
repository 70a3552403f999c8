// Settings, Users and Status in a real browser: a user cannot pick a group they do not hold until an administrator
// (another browser context) grants it on the Users page; the administrator adjusts the user's balance with a reason
// and the user's ledger shows it; the user renames themself and revokes another session on Settings; the Status page
// shows the configured providers and the last Stripe webhook. Every page in the four looks and on a phone.
import type { BrowserContext, Cookie, Page } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { startStripeFake, type StripeFake } from '../doubles/stripe/stripe-fake.js';
import { callApi, testPassword } from '../payments/payment-test-api.js';
import { describeInBrowser, englishLight, launchConsoleBrowser, looks, viewports, type ConsoleBrowser, type Look } from './console-browser-harness.js';

describeInBrowser('the console in Chromium: settings, users and status', () => {
  let stripe: StripeFake;
  let gateway: BillingTestGateway;
  let chromium: ConsoleBrowser;
  let admin: UserRecord;
  let user: UserRecord;
  let basic: { id: string; name: string };
  let granted: { id: string; name: string };
  let adminCookies: Cookie[];
  let userCookies: Cookie[];

  beforeAll(async () => {
    stripe = await startStripeFake();
    gateway = await startBillingTestGateway({
      models: ['settings-model'],
      config: {
        signIn: { publicUrl: undefined, github: undefined, oidc: { issuer: 'https://login.example.test/realms/staff', clientId: 'gateway', clientSecret: 'oidc-client-secret', displayName: 'Company SSO' } },
      },
      payments: { stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiUrl: stripe.url, currency: 'usd', microUnitsPerCurrencyUnit: 1_000_000 } },
    });
    stripe.webhookUrl = `${gateway.url}/api/payments/stripe/webhook`;
    admin = await gateway.createUser('admin', testPassword);
    user = await gateway.createUser('user', testPassword);
    basic = await gateway.createGroup();
    granted = await gateway.createGroup();
    await gateway.running.store.setUserGroups(user.id, [basic.id]);
    await gateway.running.routing.refresh();
    chromium = await launchConsoleBrowser();
  });

  afterAll(async () => {
    await chromium?.close();
    await gateway?.close();
    await stripe?.close();
  });

  /** Opens the key form and answers whether the group is among the choices. */
  async function keyFormOffers(page: Page, groupName: string): Promise<boolean> {
    await page.goto(`${gateway.url}/keys`);
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    await page.getByRole('dialog').getByRole('combobox', { name: 'Group', exact: true }).click();
    await page.getByRole('option', { name: new RegExp(`^${basic.name} `) }).waitFor();
    const offered = (await page.getByRole('option', { name: new RegExp(`^${groupName} `) }).count()) > 0;
    await page.keyboard.press('Escape');
    return offered;
  }

  async function openManageDialog(page: Page, email: string) {
    await page.goto(`${gateway.url}/admin/users`);
    await page.getByLabel('Search').fill(email);
    await page.getByRole('button', { name: `Manage ${email}`, exact: true }).click();
    return page.getByRole('dialog', { name: 'Manage user' });
  }

  it('grants a group, adjusts a balance, renames and revokes a session, and shows the providers', async () => {
    const userContext = await chromium.openContext(englishLight);
    const userPage = await userContext.newPage();
    userCookies = await chromium.signInWithPassword(userPage, gateway.url, user.email, testPassword);
    expect(await keyFormOffers(userPage, granted.name)).toBe(false);

    const adminContext = await chromium.openContext(englishLight);
    const adminPage = await adminContext.newPage();
    adminCookies = await chromium.signInWithPassword(adminPage, gateway.url, admin.email, testPassword);
    let dialog = await openManageDialog(adminPage, user.email);
    await dialog.getByRole('checkbox', { name: new RegExp(`^${granted.name} `) }).check();
    await dialog.getByRole('button', { name: 'Save groups', exact: true }).click();
    await adminPage.getByText('Groups saved.').waitFor();

    expect(await keyFormOffers(userPage, granted.name)).toBe(true);

    dialog = adminPage.getByRole('dialog', { name: 'Manage user' });
    await dialog.getByLabel('Amount').fill('7.5');
    await dialog.getByLabel('Reason').fill('browser test goodwill');
    await dialog.getByRole('button', { name: 'Apply adjustment', exact: true }).click();
    await adminPage.getByText('Balance adjusted; it is now 7.50.').waitFor();
    await expect.poll(() => dialog.getByTestId('user-detail-balance').textContent()).toBe('7.50');
    const ledger = await userPage.evaluate<{ data: Array<{ kind: string; amount: number; description: string }> }>("fetch('/api/ledger').then((response) => response.json())");
    expect(ledger.data[0]).toMatchObject({ kind: 'adjustment', amount: 7_500_000, description: 'browser test goodwill' });

    // A second session of the user, in another browser, to revoke from Settings.
    const otherContext = await chromium.openContext(englishLight, viewports.phone);
    const otherCookies = await chromium.signInWithPassword(await otherContext.newPage(), gateway.url, user.email, testPassword);
    const otherSession = otherCookies.find((cookie) => cookie.name === 'gateway_session');
    expect(otherSession).toBeDefined();
    await userPage.goto(`${gateway.url}/settings`);
    await userPage.getByLabel('Display name').fill('Grace Hopper');
    await userPage.getByRole('button', { name: 'Save', exact: true }).click();
    await userPage.getByText('Display name saved.').waitFor();
    await userPage.getByText('This browser').waitFor();
    await userPage.getByRole('button', { name: /^Revoke the session of / }).click();
    await userPage.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await userPage.getByText('Session revoked.').waitFor();
    await expect.poll(() => userPage.getByRole('button', { name: /^Revoke the session of / }).count()).toBe(0);
    const revoked = await request(`${gateway.url}/api/me`, { headers: { cookie: `gateway_session=${otherSession?.value}` } });
    await revoked.body.dump();
    expect(revoked.statusCode).toBe(401);
    expect((await gateway.running.store.listUsers()).find((candidate) => candidate.id === user.id)?.displayName).toBe('Grace Hopper');
    await otherContext.close();

    // A paid Stripe order, so the Status page has a webhook to show.
    const adminToken = ((await (await request(`${gateway.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: admin.email, password: testPassword }) })).body.json()) as { token: string }).token;
    const order = await callApi(gateway, 'POST', '/topup/orders', adminToken, { method: 'stripe', amount: '5' });
    expect((await stripe.pay(order.body.order.providerReference)).webhookStatus).toBe(200);
    await adminPage.goto(`${gateway.url}/admin/status`);
    const signIn = adminPage.getByRole('region', { name: 'Sign-in providers' });
    await signIn.getByTestId('provider-Company SSO').getByText('Configured', { exact: true }).waitFor();
    await signIn.getByText('issuer login.example.test').waitFor();
    const stripeRow = adminPage.getByTestId('payment-stripe');
    await stripeRow.getByText('Credited').waitFor();
    await stripeRow.getByText(order.body.order.id).waitFor();
    expect(await adminPage.getByTestId('payment-alipay').getByText('Not configured').count()).toBe(1);

    await userContext.close();
    await adminContext.close();
    expect(chromium.errors).toEqual([]);
  }, 60_000);

  it('photographs Settings, Users (with the manage dialog) and Status in every look and on a phone', async () => {
    expect(adminCookies).toBeDefined();
    const shots: Array<{ look: Look; viewport: { width: number; height: number }; suffix: string }> = [
      ...looks.map((look) => ({ look, viewport: viewports.desktop, suffix: look.name })),
      { look: englishLight, viewport: viewports.phone, suffix: 'en-light-phone' },
    ];
    for (const { look, viewport, suffix } of shots) {
      const asUser = await openSignedIn(chromium, look, viewport, userCookies);
      const settings = await asUser.newPage();
      await settings.goto(`${gateway.url}/settings`);
      await settings.locator('[data-testid^="session-row-"]').first().waitFor();
      await chromium.screenshot(settings, `settings-${suffix}`);
      await expectNoHorizontalOverflow(settings);
      await asUser.close();

      const asAdmin = await openSignedIn(chromium, look, viewport, adminCookies);
      const page = await asAdmin.newPage();
      await page.goto(`${gateway.url}/admin/users`);
      await page.getByTestId(`user-row-${user.id}`).waitFor();
      await chromium.screenshot(page, `users-${suffix}`);
      await expectNoHorizontalOverflow(page);
      await page.getByTestId(`user-row-${user.id}`).getByRole('button').click();
      await page.getByTestId('user-detail-balance').waitFor();
      await expect.poll(() => page.evaluate<boolean>(modalSettled)).toBe(true);
      await chromium.screenshot(page, `users-detail-${suffix}`);
      await page.goto(`${gateway.url}/admin/status`);
      await page.getByTestId('payment-stripe').waitFor();
      await chromium.screenshot(page, `status-${suffix}`);
      await expectNoHorizontalOverflow(page);
      await asAdmin.close();
    }
    expect(chromium.errors).toEqual([]);
  }, 90_000);
});

/** A new context in a look, signed in with the given session cookies. */
async function openSignedIn(chromium: ConsoleBrowser, look: Look, viewport: { width: number; height: number }, cookies: Cookie[]): Promise<BrowserContext> {
  const context = await chromium.openContext(look, viewport);
  await context.addCookies(cookies);
  return context;
}

/** Run in the page: every open dialog has finished its opening transition. */
const modalSettled = "[...document.querySelectorAll('[role=dialog]')].every((element) => getComputedStyle(element).opacity === '1')";

/** Nothing wider than the window: wide tables scroll inside their own container. */
async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
}
