// The usage logs, all usage logs and audit log pages in a real browser: a user's chat requests through the official
// openai SDK (one streamed) are found on the logs page by the x-request-id the client got, the detail's cost breakdown
// adds up to the cost, the CSV export holds the request; an admin sees the user's rows filtered by user, and the audit
// log shows the credit the admin made. Screenshots of each page and the detail in every look, and on a phone.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import type { Cookie, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ModelPrice } from '../../src/billing/model-price.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { describeInBrowser, englishLight, launchConsoleBrowser, looks, viewports, type ConsoleBrowser } from './console-browser-harness.js';

const model = 'gpt-4o-mini';
// Prices and a ratio that leave fractions of a micro-unit, so the breakdown's single rounding shows.
const price: ModelPrice = { modelId: model, inputPerMillion: 150_003, cachedInputPerMillion: 75_001, cacheWritePerMillion: 150_003, outputPerMillion: 600_007, imagePrices: {}, audioPerMinute: 0, videoPerSecond: 0 };
const password = 'a console password';

describeInBrowser('the console in Chromium: usage logs, all usage logs and the audit log', () => {
  let gateway: BillingTestGateway;
  let chromium: ConsoleBrowser;
  let user: UserRecord;
  let admin: UserRecord;
  let keyId: string;
  const requestIds: string[] = [];

  beforeAll(async () => {
    gateway = await startBillingTestGateway({ models: [model], prices: [price] });
    user = await gateway.createUser('user', password);
    admin = await gateway.createUser('admin', password);
    const key = await gateway.createKey(user);
    keyId = key.apiKeyId;
    const { billing } = gateway.running;
    await billing.exclusive(() => billing.store.setGroupPriceRatio(key.groupId, 1_500_000));
    await billing.refresh(true);

    // The admin credits the user through the /api, which the audit log records.
    const login = await request(`${gateway.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: admin.email, password }) });
    const { token } = (await login.body.json()) as { token: string };
    const credit = await request(`${gateway.url}/api/users/${user.id}/credits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ kind: 'adjustment', amount: '10', description: 'browser test credit' }),
    });
    expect(credit.statusCode, await credit.body.text()).toBe(201);

    const client = gateway.client(key.secret);
    const plain = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'what did this cost?' }], max_tokens: 16 }).withResponse();
    requestIds.push(plain.response.headers.get('x-request-id')!);
    const streamed = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'and streamed?' }], stream: true, stream_options: { include_usage: true } }).withResponse();
    for await (const chunk of streamed.data) void chunk;
    requestIds.push(streamed.response.headers.get('x-request-id')!);
    expect(requestIds.every((id) => /^req_/.test(id))).toBe(true);
    await billing.settlementsQueued();
    await billing.writer.flush();

    chromium = await launchConsoleBrowser();
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await gateway?.close();
  });

  /** The cost the gateway logged for a request, formatted as the console shows it (micro-units, 2-6 decimals). */
  async function loggedCost(requestId: string): Promise<string> {
    const { billing } = gateway.running;
    const [log] = await billing.store.listUsageLogs({ requestId, limit: 1 });
    expect(log?.cost).toBeGreaterThan(0);
    const whole = Math.floor(log!.cost / 1_000_000);
    const fraction = String(log!.cost % 1_000_000).padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
    return `${whole}.${fraction}`;
  }

  async function filterByRequestId(page: Page, requestId: string): Promise<void> {
    await page.getByLabel('Request ID').fill(requestId);
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.waitForURL(new RegExp(`requestId=${requestId}`));
  }

  it('finds a request by its id, explains its cost, exports it as CSV; the admin sees it by user and the credit in the audit log', async () => {
    const context = await chromium.openContext(englishLight);
    const page = await context.newPage();
    await page.goto(`${gateway.url}/logs`);
    await page.waitForURL(/\/sign-in\?returnTo=%2Flogs/);
    await chromium.signInWithPassword(page, gateway.url, user.email, password, /\/logs$/);
    // Both requests are listed, the streamed one marked so.
    for (const id of requestIds) await page.getByText(id, { exact: true }).waitFor();

    const [plainId, streamedId] = requestIds as [string, string];
    await filterByRequestId(page, plainId);
    await page.getByText(streamedId, { exact: true }).waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-testid^="usage-log-row-"]').count()).toBe(1);
    const row = page.locator('[data-testid^="usage-log-row-"]');
    expect(await row.textContent()).toContain(plainId);
    expect(await row.textContent()).toContain('test');

    await page.getByRole('button', { name: `Details of request ${plainId}` }).click();
    const drawer = page.getByRole('dialog', { name: 'Request details' });
    const breakdown = drawer.getByTestId('cost-breakdown');
    await breakdown.getByText('The breakdown adds up to the cost charged.').waitFor();
    await breakdown.getByText('Price ratio applied (group × premium): ×1.5').waitFor();
    expect(await breakdown.getByTestId('breakdown-rounded-total').textContent()).toBe(await loggedCost(plainId));
    // The exact total is not a whole micro-unit: rounding it up once gave the cost.
    expect(await breakdown.getByTestId('breakdown-exact-total').textContent()).toMatch(/^0\.\d{7,}/);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(plainId);
    await context.close();

    const adminContext = await chromium.openContext(englishLight);
    const adminPage = await adminContext.newPage();
    await adminPage.goto(`${gateway.url}/admin/logs`);
    await adminPage.waitForURL(/\/sign-in\?returnTo=%2Fadmin%2Flogs/);
    await chromium.signInWithPassword(adminPage, gateway.url, admin.email, password, /\/admin\/logs$/);
    await adminPage.getByLabel('User').selectOption({ label: user.email });
    await adminPage.getByRole('button', { name: 'Apply', exact: true }).click();
    await adminPage.waitForURL(new RegExp(`userId=${user.id}`));
    for (const id of requestIds) await adminPage.getByText(id, { exact: true }).waitFor();
    await expect.poll(() => adminPage.locator('[data-testid^="usage-log-row-"]').count()).toBe(2);
    expect(await adminPage.getByRole('cell', { name: user.email, exact: true }).count()).toBe(2);
    expect(await adminPage.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain(`userId=${user.id}`);

    await adminPage.goto(`${gateway.url}/admin/audit-log`);
    const creditRow = adminPage.locator('[data-testid^="audit-row-"]', { hasText: 'user.credit' });
    await creditRow.getByText('Credited a balance').waitFor();
    expect(await creditRow.textContent()).toContain(user.id);
    expect(await creditRow.textContent()).toContain(admin.email);
    await creditRow.getByRole('button', { name: 'Show details' }).click();
    await creditRow.getByText(/browser test credit/).first().waitFor();
    await adminContext.close();
    expect(chromium.errors).toEqual([]);
  }, 60_000);

  it('photographs the logs page, a detail, all logs and the audit log in every look and on a phone', async () => {
    const [plainId] = requestIds as [string];
    const signIn = async (email: string): Promise<Cookie[]> => {
      const context = await chromium.openContext(englishLight);
      const cookies = await chromium.signInWithPassword(await context.newPage(), gateway.url, email, password);
      await context.close();
      return cookies;
    };
    const userCookies = await signIn(user.email);
    const adminCookies = await signIn(admin.email);
    const shots: Array<{ look: (typeof looks)[number]; viewport: { width: number; height: number }; suffix: string }> = [
      ...looks.map((look) => ({ look, viewport: viewports.desktop, suffix: look.name })),
      { look: englishLight, viewport: viewports.phone, suffix: 'en-light-phone' },
    ];
    for (const { look, viewport, suffix } of shots) {
      const userContext = await chromium.openContext(look, viewport);
      await userContext.addCookies(userCookies);
      const page = await userContext.newPage();
      await page.goto(`${gateway.url}/logs`);
      await page.getByText(plainId, { exact: true }).waitFor();
      await chromium.screenshot(page, `usage-logs-${suffix}`);
      await page.locator(`[data-testid^="usage-log-row-"]`, { hasText: plainId }).getByRole('button').click();
      await page.getByTestId('cost-breakdown').waitFor();
      await page.getByTestId('breakdown-rounded-total').scrollIntoViewIfNeeded();
      // The drawer slides in: photograph it with its transition finished.
      await page.screenshot({ path: path.resolve('test-results', 'console', `usage-log-detail-${suffix}.png`), fullPage: true, animations: 'disabled' });
      await userContext.close();

      const adminContext = await chromium.openContext(look, viewport);
      await adminContext.addCookies(adminCookies);
      const adminPage = await adminContext.newPage();
      await adminPage.goto(`${gateway.url}/admin/logs?userId=${user.id}`);
      await adminPage.getByText(plainId, { exact: true }).waitFor();
      await chromium.screenshot(adminPage, `all-usage-logs-${suffix}`);
      await adminPage.goto(`${gateway.url}/admin/audit-log`);
      await adminPage.locator('[data-testid^="audit-row-"]', { hasText: 'user.credit' }).waitFor();
      await chromium.screenshot(adminPage, `audit-log-${suffix}`);
      // Nothing is wider than the phone: tables scroll inside their own container.
      if (viewport === viewports.phone) expect(await adminPage.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await adminContext.close();
    }
    expect(keyId).toMatch(/./);
    expect(chromium.errors).toEqual([]);
  }, 120_000);
});
