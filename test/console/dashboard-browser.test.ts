// The dashboard, models & prices and key editing in a real browser: a user's key makes chat requests through the
// official openai SDK against the OpenAI simulator; the dashboard shows their spend, request count, charts and the
// key; the models page shows prices after the group's ×1.5 ratio; a key's name and cap are edited in the browser.
// Screenshots of the three in every look, and on a phone.
import type { Cookie } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../src/accounts/api-key-secret.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import { settleEverything, startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { describeInBrowser, englishLight, launchConsoleBrowser, looks, viewports, type ConsoleBrowser, type Look } from './console-browser-harness.js';

const password = 'a dashboard password';
const model = 'gpt-4o-mini';
const requestCount = 3;

/** Micro-units as the console shows them (at least two decimals, at most six, grouped whole part in English). */
function showMicroUnits(amount: number): string {
  const whole = Math.floor(amount / 1_000_000).toLocaleString('en-US');
  return `${whole}.${String(amount % 1_000_000).padStart(6, '0').replace(/0+$/, '').padEnd(2, '0')}`;
}

/** The Edit button's name in a look's language. */
const editLabel = (look: Look) => (look.locale === 'zh-CN' ? '编辑' : 'Edit');

describeInBrowser('the console in Chromium: dashboard, models & prices, key editing', () => {
  let gateway: BillingTestGateway;
  let chromium: ConsoleBrowser;
  let user: UserRecord;
  let apiKeyId: string;
  let groupName: string;

  beforeAll(async () => {
    gateway = await startBillingTestGateway({
      models: [model],
      prices: [{ modelId: model, inputPerMillion: 2_000_000, outputPerMillion: 8_000_000, cachedInputPerMillion: 1_000_000, cacheWritePerMillion: 0, imagePrices: {}, audioPerMinute: 0, videoPerSecond: 0 }],
    });
    const { store, billing } = gateway.running;
    user = await gateway.createUser('user', password);
    await gateway.topUp(user, 10_000_000);
    const secret = generateApiKeySecret();
    const key = await billing.exclusive(async () => {
      const group = await store.createModelGroup({ name: `premium-${process.pid}`, description: 'the ×1.5 group', models: ['*'] });
      groupName = group.name;
      await store.grantUserGroups(user.id, [group.id]);
      await billing.store.setGroupPriceRatio(group.id, 1_500_000);
      return store.createApiKey({ userId: user.id, groupId: group.id, name: 'dashboard key', keyHash: hashApiKeySecret(secret), keyPrefix: displayPrefixOf(secret), expiresAt: null });
    });
    apiKeyId = key.id;
    await gateway.running.routing.refresh();
    await billing.refresh(true);

    const client = gateway.client(secret);
    for (let index = 0; index < requestCount; index += 1) {
      const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: `hello ${index}` }] });
      expect(completion.choices[0]?.message.content).toBe(`Echo: hello ${index}`);
    }
    await settleEverything([gateway.running], user.id);
    chromium = await launchConsoleBrowser();
  });

  afterAll(async () => {
    await chromium?.close();
    await gateway?.close();
  });

  it('shows the requests on the dashboard, prices after the ratio, and edits a key’s name and cap', async () => {
    const rows = await gateway.running.billing.store.listUsageSummaries({ userId: user.id });
    const cost = rows.reduce((sum, row) => sum + row.cost, 0);
    expect(rows.reduce((sum, row) => sum + row.requestCount, 0)).toBe(requestCount);
    expect(cost).toBeGreaterThan(0);

    const context = await chromium.openContext(englishLight);
    const page = await context.newPage();
    await chromium.signInWithPassword(page, gateway.url, user.email, password);

    // Dashboard: spend and requests, the charts drawn with the model's series, the key in the per-key table.
    await expect.poll(() => page.getByTestId('spend-24h').textContent()).toBe(showMicroUnits(cost));
    expect(await page.getByTestId('requests-24h').textContent()).toBe(`${requestCount} requests`);
    expect(await page.getByTestId('requests-7d').textContent()).toBe(`${requestCount} requests`);
    expect(await page.getByTestId('spend-30d').textContent()).toBe(showMicroUnits(cost));
    const spendChart = page.getByRole('figure', { name: 'Spend chart' });
    await spendChart.getByText(model).first().waitFor();
    expect(await spendChart.locator('svg path.recharts-rectangle').count()).toBeGreaterThan(0);
    expect(await page.getByRole('figure', { name: 'Requests chart' }).locator('svg path.recharts-rectangle').count()).toBeGreaterThan(0);
    expect(await page.getByRole('figure', { name: 'Model share chart' }).locator('svg path').count()).toBeGreaterThan(0);
    const keyTable = page.getByRole('table', { name: 'Usage per key' });
    await keyTable.getByText('dashboard key').waitFor();
    expect(await keyTable.getByRole('row').nth(1).getByRole('cell').nth(2).textContent()).toBe(String(requestCount));
    await expect.poll(() => keyTable.getByRole('row').nth(1).getByRole('cell').nth(4).textContent()).not.toBe('never');

    // Models & prices: 2.00 and 8.00 per million list prices, ×1.5 for this group.
    await page.getByRole('link', { name: 'Models & prices' }).click();
    const modelRow = page.getByRole('table', { name: `Models of ${groupName}` }).getByRole('row').filter({ hasText: model });
    await modelRow.waitFor();
    expect(await modelRow.getByRole('cell').allTextContents()).toEqual([`${model}openai`, 'Available', '3.00', '1.50', '0.00', '12.00', '—']);
    await page.getByText('Price ratio ×1.5').waitFor();

    // Keys: edit the name and the cap, and see both in the list.
    await page.getByRole('link', { name: 'API keys' }).click();
    const keyRow = page.getByTestId(`key-row-${apiKeyId}`);
    await keyRow.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit key “dashboard key”' });
    await dialog.getByLabel('Name').fill('renamed key');
    await dialog.getByLabel('Spending cap').fill('5');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Key “renamed key” saved.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await keyRow.getByRole('cell', { name: 'renamed key', exact: true }).waitFor();
    expect(await keyRow.getByRole('cell', { name: /\/ 5\.00$/ }).count()).toBe(1);
    await context.close();
    expect(chromium.errors).toEqual([]);
  }, 90_000);

  it('photographs the dashboard, models and the key edit dialog in every look and on a phone', async () => {
    const signedIn = await chromium.openContext(englishLight);
    const cookies: Cookie[] = await chromium.signInWithPassword(await signedIn.newPage(), gateway.url, user.email, password);
    await signedIn.close();

    const shots: Array<{ look: Look; viewportName: keyof typeof viewports }> = [
      ...looks.map((look) => ({ look, viewportName: 'desktop' as const })),
      { look: englishLight, viewportName: 'phone' },
    ];
    for (const { look, viewportName } of shots) {
      const context = await chromium.openContext(look, viewports[viewportName]);
      await context.addCookies(cookies);
      const page = await context.newPage();
      const suffix = viewportName === 'phone' ? `${look.name}-phone` : look.name;
      await page.goto(`${gateway.url}/dashboard`);
      await page.getByTestId('spend-24h').waitFor();
      await page.getByRole('figure').first().locator('svg path.recharts-rectangle').first().waitFor();
      expect(await page.evaluate<string>('document.documentElement.dataset.mantineColorScheme')).toBe(look.colorScheme);
      expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await chromium.screenshot(page, `dashboard-${suffix}`);

      await page.goto(`${gateway.url}/models`);
      await page.getByTestId(new RegExp(`^model-row-.*-${model}$`)).waitFor();
      expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await chromium.screenshot(page, `models-${suffix}`);

      await page.goto(`${gateway.url}/keys`);
      await page.getByTestId(`key-row-${apiKeyId}`).getByRole('button', { name: editLabel(look), exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: look.locale === 'zh-CN' ? '保存' : 'Save', exact: true }).waitFor();
      // The dialog fades in: photograph it once it is fully shown.
      await expect.poll(() => page.evaluate<string>(`getComputedStyle(document.querySelector('[role="dialog"]')).opacity`)).toBe('1');
      await chromium.screenshot(page, `key-edit-${suffix}`);
      await context.close();
    }
    expect(chromium.errors).toEqual([]);
  }, 90_000);
});
