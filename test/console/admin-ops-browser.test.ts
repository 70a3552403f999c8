// The admin Orders and Redemption codes pages in a real browser, against a gateway with billing and the Stripe fake:
// an admin creates a batch of codes (shown once, copied, downloaded), a user redeems one through the API and the list
// shows it redeemed, the admin disables the batch; a Stripe order whose webhook was lost is listed and re-checked
// in the UI (credited). Both pages, the re-check result and the new-codes dialog in every look and on a phone.
import type { Cookie, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { redemptionCodeDisplayPrefix } from '../../src/accounts/redemption-code.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { startStripeFake, type StripeFake } from '../doubles/stripe/stripe-fake.js';
import { callApi, createSignedInUser, testPassword } from '../payments/payment-test-api.js';
import { describeInBrowser, englishLight, launchConsoleBrowser, looks, viewports, type ConsoleBrowser, type Look } from './console-browser-harness.js';

describeInBrowser('the admin Orders and Redemption codes pages in Chromium', () => {
  let stripe: StripeFake;
  let gateway: BillingTestGateway;
  let chromium: ConsoleBrowser;
  let admin: UserRecord;
  let adminCookies: Cookie[];

  beforeAll(async () => {
    stripe = await startStripeFake();
    gateway = await startBillingTestGateway({
      models: ['ops-model'],
      payments: { stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiUrl: stripe.url, currency: 'usd', microUnitsPerCurrencyUnit: 1_000_000 }, minimumMicroUnits: 1_000_000 },
    });
    stripe.webhookUrl = `${gateway.url}/api/payments/stripe/webhook`;
    admin = await gateway.createUser('admin', testPassword);
    chromium = await launchConsoleBrowser();
    const context = await chromium.openContext(englishLight);
    adminCookies = await chromium.signInWithPassword(await context.newPage(), gateway.url, admin.email, testPassword);
    await context.close();
  });

  afterAll(async () => {
    await chromium?.close();
    await gateway?.close();
    await stripe?.close();
  });

  /** A page of the admin's, signed in, in `look`. */
  async function adminPage(look: Look, viewport: { width: number; height: number } = viewports.desktop): Promise<Page> {
    const context = await chromium.openContext(look, viewport);
    await context.addCookies(adminCookies);
    return context.newPage();
  }

  /** Creates a batch in the open Redemption codes page; the new-codes dialog is left open. */
  async function createBatch(page: Page, amount: string, count: number, note: string): Promise<void> {
    await page.getByRole('button', { name: /^(Create codes|创建兑换码)$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^(Amount per code|每个兑换码的面额)/).fill(amount);
    await dialog.getByLabel(/^(Number of codes|数量)/).fill(String(count));
    await dialog.getByLabel(/^(Note|备注)$/).fill(note);
    await dialog.getByRole('button', { name: /^(Create|创建)$/ }).click();
    await page.getByTestId('new-redemption-codes').waitFor();
  }

  it('creates codes shown once, copies and downloads them, sees one redeemed, and disables the batch', async () => {
    const page = await adminPage(englishLight);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
    await page.goto(`${gateway.url}/admin/redemption-codes`);
    await page.getByText('No codes match.').waitFor();

    await createBatch(page, '5', 3, 'browser batch');
    await page.getByText('3 codes worth 5.00 each.', { exact: false }).waitFor();
    const shown = (await page.getByTestId('new-redemption-codes').textContent()) ?? '';
    const codes = shown.split('\n');
    expect(codes).toHaveLength(3);
    await page.getByRole('button', { name: 'Copy all codes', exact: true }).click();
    await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(shown);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV', exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(/^redemption-codes-.+\.csv$/);
    const csvPath = await download.path();
    const { readFile } = await import('node:fs/promises');
    const csv = await readFile(csvPath, 'utf8');
    for (const code of codes) expect(csv).toContain(`${code},`);
    await page.getByRole('button', { name: 'I have saved them', exact: true }).click();
    // Shown once: the list keeps only the prefixes.
    await page.getByRole('row').filter({ hasText: redemptionCodeDisplayPrefix(codes[0]!) }).waitFor();
    expect(await page.getByText(codes[0]!).count()).toBe(0);

    const { token } = await createSignedInUser(gateway);
    const redeemed = await callApi(gateway, 'POST', '/redeem', token, { code: codes[0] });
    expect(redeemed).toMatchObject({ status: 200, body: { amount: 5_000_000, balance: 5_000_000 } });

    await page.reload();
    const redeemedRow = page.getByRole('row').filter({ hasText: redemptionCodeDisplayPrefix(codes[0]!) });
    await redeemedRow.getByText('Redeemed', { exact: true }).waitFor();

    const otherPrefix = redemptionCodeDisplayPrefix(codes[1]!);
    await page.getByRole('button', { name: `Disable the batch of code ${otherPrefix}`, exact: true }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText(/^Disable batch .+\?$/).waitFor();
    await confirm.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.getByText('Disabled 2 codes.').waitFor();
    for (const code of codes.slice(1)) await page.getByRole('row').filter({ hasText: redemptionCodeDisplayPrefix(code) }).getByText('Disabled', { exact: true }).waitFor();
    await redeemedRow.getByText('Redeemed', { exact: true }).waitFor();
    expect((await callApi(gateway, 'POST', '/redeem', token, { code: codes[1] })).status).toBe(400);
    await page.context().close();
    expect(chromium.errors).toEqual([]);
  }, 60_000);

  it('lists a Stripe order whose webhook was lost and re-checks it in the UI: the provider says paid and it is credited', async () => {
    const { token } = await createSignedInUser(gateway);
    const created = await callApi(gateway, 'POST', '/topup/orders', token, { method: 'stripe', amount: '12' });
    expect(created.status).toBe(201);
    const orderId: string = created.body.order.id;
    stripe.payWithoutWebhook(created.body.order.providerReference);

    const page = await adminPage(englishLight);
    await page.goto(`${gateway.url}/admin/orders`);
    const row = page.getByTestId(`order-row-${orderId}`);
    await row.getByText('Pending', { exact: true }).waitFor();
    await row.getByText('12.00 USD').waitFor();
    await row.getByText(created.body.order.providerReference).waitFor();

    await page.getByRole('button', { name: `Re-check order ${orderId}`, exact: true }).click();
    const result = page.getByTestId('recheck-result');
    await result.getByText('Stripe says the order is paid.').waitFor();
    await result.getByText('Credited now: the balance was topped up').waitFor();
    await chromium.screenshot(page, 'orders-recheck-credited-en-light');
    await page.getByRole('button', { name: 'Close', exact: true }).first().click();
    await row.getByText('Paid', { exact: true }).waitFor();
    expect((await callApi(gateway, 'GET', `/topup/orders/${orderId}`, token)).body.status).toBe('paid');
    expect((await callApi(gateway, 'GET', '/balance', token)).body.balance).toBeGreaterThanOrEqual(12_000_000);
    await page.context().close();
    expect(chromium.errors).toEqual([]);
  }, 60_000);

  it('renders orders, the re-check result, redemption codes and the new-codes dialog in every look and on a phone', async () => {
    const shots: Array<{ look: Look; viewport: { width: number; height: number }; suffix: string }> = [
      ...looks.map((look) => ({ look, viewport: viewports.desktop, suffix: look.name })),
      { look: englishLight, viewport: viewports.phone, suffix: `${englishLight.name}-phone` },
    ];
    for (const { look, viewport, suffix } of shots) {
      const page = await adminPage(look, viewport);
      await page.goto(`${gateway.url}/admin/orders`);
      const firstRow = page.getByRole('row').nth(1);
      await firstRow.waitFor();
      expect(await page.evaluate<string>('document.documentElement.dataset.mantineColorScheme')).toBe(look.colorScheme);
      await chromium.screenshot(page, `orders-${suffix}`);
      await firstRow.getByRole('button', { name: /^(Re-check order|重新核对订单) / }).click();
      await page.getByTestId('recheck-result').waitFor();
      await chromium.screenshot(page, `orders-recheck-${suffix}`);

      await page.goto(`${gateway.url}/admin/redemption-codes`);
      await page.getByRole('row').nth(1).waitFor();
      await chromium.screenshot(page, `redemption-codes-${suffix}`);
      await createBatch(page, '1.5', 2, `look ${suffix}`);
      await chromium.screenshot(page, `redemption-codes-new-${suffix}`);
      if (viewport === viewports.phone) expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await page.context().close();
    }
    expect(chromium.errors).toEqual([]);
  }, 90_000);
});
