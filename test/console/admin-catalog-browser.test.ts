// The administrators' Groups & prices and Channels pages in a real browser: create a channel to the OpenAI
// simulator and test it, test one with a wrong secret (the error shows, the secret does not), disable and enable
// it; change a group's ratio; set a price override and see it in force; every page and dialog in every look.
import type { Cookie, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../../src/accounts/password-hash.js';
import type { ModelGroupRecord, UserRecord } from '../../src/storage/store-records.js';
import { startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { describeInBrowser, englishLight, launchConsoleBrowser, looks, viewports, type ConsoleBrowser, type Look } from './console-browser-harness.js';

const simulatorSecret = 'sk-simulator-admin-catalog-0123456789';
const wrongSecret = 'sk-wrong-admin-catalog-secret-ABCDEFGH';
const password = 'an admin console password';

/** The accessible names the flows use, per language. */
const names = {
  en: { testChannel: (name: string) => `Test channel ${name}`, runTest: 'Send a test request', answered: 'The channel answered', newChannel: 'New channel', setPrice: 'Set a model’s price', addCatalog: 'Add catalog entry' },
  zh: { testChannel: (name: string) => `测试渠道 ${name}`, runTest: '发送测试请求', answered: '渠道响应正常', newChannel: '新建渠道', setPrice: '设置模型价格', addCatalog: '添加目录条目' },
} as const;

/** Waits until the page's CSS transitions (a modal opening) are over, so a screenshot shows the end state. */
async function settle(page: Page): Promise<void> {
  // A function, not a string: the console's Content-Security-Policy refuses eval.
  await page.waitForFunction(() =>
    (globalThis as unknown as { document: { getAnimations(): Array<{ playState: string }> } }).document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
}

function namesFor(look: Look) {
  return look.locale === 'zh-CN' ? names.zh : names.en;
}

describeInBrowser('the console in Chromium: groups & prices, channels', () => {
  let simulator: OpenAiSimulator;
  let gateway: TestGateway;
  let chromium: ConsoleBrowser;
  let admin: UserRecord;
  let group: ModelGroupRecord;
  const channelName = uniqueName('simulator');
  const brokenChannelName = uniqueName('wrong-secret');

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: simulatorSecret });
    gateway = await startTestGateway();
    group = await gateway.createGroup(['gpt-4o-mini']);
    admin = await gateway.store.createUser({ email: `${uniqueName('admin')}@example.test`, displayName: 'Catalog admin', role: 'admin', passwordHash: await hashPassword(password) });
    await gateway.refreshRouting();
    chromium = await launchConsoleBrowser();
  });

  afterAll(async () => {
    await chromium?.close();
    await gateway?.close();
    await simulator?.close();
  });

  async function createChannel(page: Page, name: string, secret: string): Promise<void> {
    await page.getByRole('button', { name: 'New channel', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Preset' }).click();
    await page.getByRole('option', { name: 'openai · openai', exact: true }).click();
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Base URL').fill(simulator.url);
    await dialog.getByLabel('Secret (API key)').fill(secret);
    await dialog.getByLabel('Models').fill('gpt-4o-mini');
    await dialog.getByRole('button', { name: 'Create channel', exact: true }).click();
    await page.getByTestId(`channel-row-${name}`).waitFor();
    await dialog.waitFor({ state: 'hidden' });
  }

  it('creates, tests, disables and enables channels; changes a ratio; sets a price override', async () => {
    const context = await chromium.openContext(englishLight);
    const page = await context.newPage();
    await page.goto(`${gateway.url}/admin/channels`);
    await page.waitForURL(/\/sign-in\?returnTo=/);
    await chromium.signInWithPassword(page, gateway.url, admin.email, password, /\/admin\/channels$/);
    await page.getByText('No channels yet.').waitFor();

    await createChannel(page, channelName, simulatorSecret);
    const row = page.getByTestId(`channel-row-${channelName}`);
    expect(await row.textContent()).toContain('Set · …6789');
    expect(await row.textContent()).not.toContain(simulatorSecret);

    await page.getByRole('button', { name: `Test channel ${channelName}`, exact: true }).click();
    const testDialog = page.getByRole('dialog');
    await testDialog.getByRole('button', { name: 'Send a test request' }).click();
    await testDialog.getByText('The channel answered').waitFor();
    expect(await testDialog.textContent()).toMatch(/\d+ ms/);
    expect(await testDialog.textContent()).toContain('HTTP 200');
    await page.keyboard.press('Escape');
    await testDialog.waitFor({ state: 'hidden' });

    await createChannel(page, brokenChannelName, wrongSecret);
    await page.getByRole('button', { name: `Test channel ${brokenChannelName}`, exact: true }).click();
    await testDialog.getByRole('button', { name: 'Send a test request' }).click();
    await testDialog.getByText('The test failed').waitFor();
    const failure = (await testDialog.textContent()) ?? '';
    expect(failure).toContain('HTTP 401');
    expect(failure).not.toContain(wrongSecret);
    expect(failure).not.toContain(wrongSecret.slice(-8));
    await page.keyboard.press('Escape');
    await testDialog.waitFor({ state: 'hidden' });

    const brokenRow = page.getByTestId(`channel-row-${brokenChannelName}`);
    await page.getByRole('button', { name: `Disable channel ${brokenChannelName}`, exact: true }).click();
    await brokenRow.getByText('Disabled', { exact: true }).waitFor();
    expect((await gateway.store.findChannelByName(brokenChannelName))?.status).toBe('disabled');
    await page.getByRole('button', { name: `Enable channel ${brokenChannelName}`, exact: true }).click();
    await brokenRow.getByText('Enabled', { exact: true }).waitFor();
    expect((await gateway.store.findChannelByName(brokenChannelName))?.status).toBe('enabled');

    await page.goto(`${gateway.url}/admin/groups`);
    const groupRow = page.getByTestId(`group-row-${group.name}`);
    await groupRow.getByText('×1.00').waitFor();
    await page.getByRole('button', { name: `Change the price ratio of ${group.name}`, exact: true }).click();
    const ratioDialog = page.getByRole('dialog');
    await ratioDialog.getByLabel('Price ratio').fill('1.5');
    await ratioDialog.getByRole('button', { name: 'Save', exact: true }).click();
    await groupRow.getByText('×1.50').waitFor();

    await page.getByRole('button', { name: 'Set a model’s price', exact: true }).click();
    const priceDialog = page.getByRole('dialog');
    await priceDialog.getByLabel('Model id').fill('gpt-4o-mini');
    await priceDialog.getByRole('textbox', { name: 'Input per 1M tokens', exact: true }).fill('1.25');
    await priceDialog.getByRole('textbox', { name: 'Output per 1M tokens', exact: true }).fill('2.5');
    await priceDialog.getByRole('button', { name: 'Save', exact: true }).click();
    await priceDialog.waitFor({ state: 'hidden' });
    await page.getByLabel('Search models').fill('gpt-4o-mini');
    const priceRow = page.getByTestId('price-row-gpt-4o-mini');
    await priceRow.getByText('2.50').waitFor();
    expect(await priceRow.getByText('1.25').count()).toBe(3);

    await page.getByRole('button', { name: 'Add catalog entry', exact: true }).click();
    const catalogDialog = page.getByRole('dialog');
    await catalogDialog.getByLabel('Model id').fill('house-model');
    await catalogDialog.getByLabel('Owned by').fill('house');
    await catalogDialog.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Chat', exact: true }).click();
    await catalogDialog.getByLabel('Context window (tokens)').fill('32000');
    await catalogDialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('catalog-row-house-model').waitFor();
    await context.close();
    expect(chromium.errors).toEqual([]);
  }, 60_000);

  it('renders the pages, dialogs and a test result in every look and on a phone, without console errors', async () => {
    const signedIn = await chromium.openContext(englishLight);
    const cookies: Cookie[] = await chromium.signInWithPassword(await signedIn.newPage(), gateway.url, admin.email, password);
    await signedIn.close();

    for (const look of looks) {
      const label = namesFor(look);
      const context = await chromium.openContext(look);
      await context.addCookies(cookies);
      const page = await context.newPage();
      await page.goto(`${gateway.url}/admin/groups`);
      await page.getByTestId(`group-row-${group.name}`).waitFor();
      await page.getByTestId('catalog-row-house-model').waitFor();
      await chromium.screenshot(page, `admin-groups-${look.name}`);
      await page.getByRole('button', { name: label.setPrice, exact: true }).click();
      await page.getByRole('dialog').waitFor();
      await settle(page);
      await chromium.screenshot(page, `admin-groups-price-dialog-${look.name}`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: label.addCatalog, exact: true }).click();
      await page.getByRole('dialog').waitFor();
      await settle(page);
      await chromium.screenshot(page, `admin-groups-catalog-dialog-${look.name}`);
      await page.keyboard.press('Escape');

      await page.goto(`${gateway.url}/admin/channels`);
      await page.getByTestId(`channel-row-${channelName}`).waitFor();
      await chromium.screenshot(page, `admin-channels-${look.name}`);
      await page.getByRole('button', { name: label.newChannel, exact: true }).click();
      await page.getByRole('dialog').waitFor();
      await settle(page);
      await chromium.screenshot(page, `admin-channels-form-${look.name}`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: label.testChannel(channelName), exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: label.runTest }).click();
      await page.getByRole('dialog').getByText(label.answered).waitFor();
      await settle(page);
      await chromium.screenshot(page, `admin-channels-test-${look.name}`);
      await context.close();
    }

    const phone = await chromium.openContext(englishLight, viewports.phone);
    await phone.addCookies(cookies);
    const page = await phone.newPage();
    for (const [path, ready, name] of [['/admin/groups', `group-row-${group.name}`, 'admin-groups'], ['/admin/channels', `channel-row-${channelName}`, 'admin-channels']] as const) {
      await page.goto(`${gateway.url}${path}`);
      await page.getByTestId(ready).waitFor();
      expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await chromium.screenshot(page, `${name}-en-light-phone`);
    }
    await phone.close();
    expect(chromium.errors).toEqual([]);
  }, 120_000);
});
