// The top-up pages in a real browser against a gateway with both payment doubles: a Stripe Checkout top-up through
// the fake's hosted page back to the return page (first-top-up bonus), an Alipay QR top-up paid by the fake's signed
// notify, a redeemed code, and the ledger listing them; every page in the four looks and on a phone.
import type { Cookie, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { startAlipayFake, type AlipayFake } from '../doubles/alipay/alipay-fake.js';
import { startStripeFake, type StripeFake } from '../doubles/stripe/stripe-fake.js';
import { callApi, createSignedInUser, testPassword } from '../payments/payment-test-api.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import { describeInBrowser, englishLight, launchConsoleBrowser, looks, viewports, type ConsoleBrowser } from './console-browser-harness.js';

describeInBrowser('the console in Chromium: top-up, return page, redeem and ledger', () => {
  let stripe: StripeFake;
  let alipay: AlipayFake;
  let gateway: BillingTestGateway;
  let chromium: ConsoleBrowser;
  let user: UserRecord;
  let adminToken: string;
  let stripeOrderId = '';

  beforeAll(async () => {
    stripe = await startStripeFake();
    alipay = await startAlipayFake();
    gateway = await startBillingTestGateway({
      models: ['gpt-4o-mini'],
      payments: {
        stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiUrl: stripe.url, currency: 'usd', microUnitsPerCurrencyUnit: 1_000_000 },
        // Face-to-face pay: the console shows the QR code and polls the order.
        alipay: {
          appId: alipay.appId,
          privateKey: alipay.appKeys.privateKey,
          alipayPublicKey: alipay.platformKeys.publicKey,
          gatewayUrl: `${alipay.url}/gateway.do`,
          endpoint: alipay.url,
          mode: 'qr',
          sellerId: alipay.sellerId,
          microUnitsPerCurrencyUnit: 140_000,
        },
        // 10% of the first paid top-up plus 0.5, at most 2 units
        bonus: { percentMillionths: 10_000_000, fixedMicroUnits: 500_000, capMicroUnits: 2_000_000 },
        minimumMicroUnits: 1_000_000,
      },
    });
    stripe.webhookUrl = `${gateway.url}/api/payments/stripe/webhook`;
    user = await gateway.createUser('user', testPassword);
    adminToken = (await createSignedInUser(gateway, 'admin')).token;
    chromium = await launchConsoleBrowser();
  });

  afterAll(async () => {
    await chromium?.close();
    await gateway?.close();
    await alipay?.close();
    await stripe?.close();
  });

  async function chooseAmount(page: Page, amount: string): Promise<void> {
    const input = page.getByLabel('Amount to add');
    await input.fill(amount);
  }

  it('tops up with Stripe and Alipay, redeems a code, and the ledger lists them', async () => {
    const context = await chromium.openContext(englishLight);
    const page = await context.newPage();
    await page.goto(`${gateway.url}/top-up`);
    await page.waitForURL(/\/sign-in\?returnTo=%2Ftop-up/);
    await chromium.signInWithPassword(page, gateway.url, user.email, testPassword, /\/top-up$/);
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('0.00');

    // Stripe: the bonus is shown before paying, then the fake's hosted page, then the return page.
    await page.getByRole('radio', { name: 'Stripe', exact: true }).check();
    await chooseAmount(page, '10');
    await expect.poll(() => page.getByTestId('top-up-preview').textContent()).toBe('Pay 10.00 USD, receive 10.00 + bonus 1.50.');
    await chromium.screenshot(page, 'top-up-preview-en-light');
    await page.getByRole('button', { name: 'Pay with Stripe', exact: true }).click();
    await page.waitForURL(`${stripe.url}/pay/**`);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/\/top-up\/return\?order=/);
    stripeOrderId = new URL(page.url()).searchParams.get('order') ?? '';
    await page.getByText('Payment received', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('current-balance').textContent()).toBe('11.50');
    expect(await page.getByText('First top-up bonus:', { exact: true }).count()).toBe(1);
    expect(await page.getByText('1.50', { exact: true }).count()).toBe(1);

    // Alipay face-to-face: the QR code, paid by the fake's signed notify while the console polls; no second bonus.
    await page.getByRole('link', { name: 'Back to top-up and order history' }).click();
    await page.getByRole('radio', { name: 'Alipay', exact: true }).check();
    await chooseAmount(page, '10');
    await expect.poll(() => page.getByTestId('top-up-preview').textContent()).toBe('Pay 71.43 CNY, receive 10.0002.');
    await page.getByRole('button', { name: 'Pay with Alipay', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('img', { name: 'QR code to pay with Alipay' }).waitFor();
    await dialog.getByText('Scan with Alipay and pay 71.43 CNY.').waitFor();
    await chromium.screenshot(page, 'top-up-qr-en-light');
    const [alipayOrderId] = [...alipay.trades.keys()];
    expect(alipayOrderId).toBeDefined();
    expect((await alipay.pay(alipayOrderId!)).answers).toEqual(['success']);
    await dialog.getByText('Payment received', { exact: true }).waitFor();
    await expect.poll(() => dialog.getByTestId('current-balance').textContent()).toBe('21.5002');
    await dialog.getByRole('button', { name: 'Done', exact: true }).click();
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('21.5002');
    await page.getByTestId(`order-row-${alipayOrderId}`).getByText('Paid', { exact: true }).waitFor();

    // A redemption code made through the admin API.
    const batch = await callApi(gateway, 'POST', '/admin/redemption-codes', adminToken, { amount: '3', count: 1 });
    expect(batch.status).toBe(201);
    await page.getByLabel('Redemption code').fill(batch.body.codes[0].code);
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await expect.poll(() => page.getByTestId('redeem-result').textContent()).toBe('Credited 3.00. New balance: 24.5002.');
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('24.5002');

    await page.getByRole('link', { name: 'Ledger', exact: true }).click();
    await page.getByText('Redeemed code', { exact: true }).waitFor();
    expect(await page.getByText('Top-up', { exact: true }).and(page.locator('main *')).count()).toBe(2);
    expect(await page.getByText('Bonus', { exact: true }).count()).toBe(1);
    expect(await page.getByText('+10.0002', { exact: true }).count()).toBe(1);
    expect(await page.getByText('+1.50', { exact: true }).count()).toBe(1);
    expect(await page.getByText('+3.00', { exact: true }).count()).toBe(1);
    await context.close();
    expect(chromium.errors).toEqual([]);
  }, 60_000);

  it('renders the top-up, return and ledger pages in every look and on a phone, without console errors', async () => {
    const signedIn = await chromium.openContext(englishLight);
    const cookies: Cookie[] = await chromium.signInWithPassword(await signedIn.newPage(), gateway.url, user.email, testPassword);
    await signedIn.close();
    const shots: Array<{ name: string; look: (typeof looks)[number]; viewport: { width: number; height: number } }> = [
      ...looks.map((look) => ({ name: look.name, look, viewport: viewports.desktop })),
      { name: 'en-light-phone', look: englishLight, viewport: viewports.phone },
    ];
    for (const shot of shots) {
      const context = await chromium.openContext(shot.look, shot.viewport);
      await context.addCookies(cookies);
      const page = await context.newPage();
      await page.goto(`${gateway.url}/top-up`);
      await page.getByTestId('top-up-preview').waitFor();
      await page.getByTestId(`order-row-${stripeOrderId}`).waitFor();
      await expectNoSidewaysOverflow(page);
      await chromium.screenshot(page, `top-up-${shot.name}`);

      await page.goto(`${gateway.url}/top-up/return?order=${stripeOrderId}`);
      await page.getByTestId('current-balance').waitFor();
      await expectNoSidewaysOverflow(page);
      await chromium.screenshot(page, `top-up-return-${shot.name}`);

      await page.goto(`${gateway.url}/ledger`);
      await page.locator('[data-testid^="ledger-row-"]').first().waitFor();
      await expectNoSidewaysOverflow(page);
      await chromium.screenshot(page, `ledger-${shot.name}`);
      await context.close();
    }
    expect(chromium.errors).toEqual([]);
  }, 60_000);
});

/** Nothing but a table's own scroll area may be wider than the screen. */
async function expectNoSidewaysOverflow(page: Page): Promise<void> {
  expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).toBe(true);
}
