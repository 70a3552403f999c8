// The console in a real browser: sign in with a password, create a key, copy it, and call the gateway with it
// through the official openai SDK; the sign-in, setup and keys pages in every look, on a desktop and a phone.
import type { Cookie } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../../src/accounts/password-hash.js';
import type { ModelGroupRecord, UserRecord } from '../../src/storage/store-records.js';
import { createOpenAiClient, startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import { describeInBrowser, englishLight, launchConsoleBrowser, looks, viewports, type ConsoleBrowser } from './console-browser-harness.js';

const channelSecret = 'sk-upstream-console-browser';
const password = 'a console password';

describeInBrowser('the console in Chromium: sign-in and keys', () => {
  let simulator: OpenAiSimulator;
  let gateway: TestGateway;
  let chromium: ConsoleBrowser;
  let user: UserRecord;
  let group: ModelGroupRecord;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: channelSecret });
    gateway = await startTestGateway();
    await gateway.createChannel({ baseUrl: simulator.url, secret: channelSecret, models: ['gpt-4o-mini'] });
    group = await gateway.createGroup(['gpt-4o-mini']);
    user = await gateway.store.createUser({ email: `${uniqueName('browser')}@example.test`, displayName: 'Browser user', role: 'user', passwordHash: await hashPassword(password) });
    await gateway.store.grantUserGroups(user.id, [group.id]);
    await gateway.refreshRouting();
    chromium = await launchConsoleBrowser();
    console.info(`console browser test: Chromium ${chromium.browser.version()}`);
  });

  afterAll(async () => {
    await chromium?.close();
    await gateway?.close();
    await simulator?.close();
  });

  it('signs in with a password, creates and copies a key, and the key works with the openai SDK', async () => {
    const context = await chromium.openContext(englishLight);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
    const page = await context.newPage();

    await page.goto(`${gateway.url}/keys`);
    await page.waitForURL(/\/sign-in\?returnTo=%2Fkeys/);
    await chromium.signInWithPassword(page, gateway.url, user.email, password, /\/keys$/);
    await page.getByText('You have no keys yet.').waitFor();

    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('browser key');
    await dialog.getByRole('combobox', { name: 'Group', exact: true }).click();
    await page.getByRole('option', { name: new RegExp(`^${group.name} `) }).click();
    await chromium.screenshot(page, 'keys-create-en-light');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();

    const secretText = await page.getByTestId('new-key-secret').textContent();
    await page.getByRole('button', { name: 'Copy key', exact: true }).click();
    await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe(secretText);
    expect(copied).toMatch(/^sk-/);
    await expect.poll(() => page.getByText(`${gateway.url}/v1/chat/completions`).count()).toBeGreaterThan(0);
    await chromium.screenshot(page, 'keys-secret-en-light');

    const completion = await createOpenAiClient(gateway, copied).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.choices[0]?.message.content).toBe('Echo: hello');

    await page.getByRole('button', { name: 'I have copied it', exact: true }).click();
    await page.getByRole('cell', { name: 'browser key', exact: true }).waitFor();
    await context.close();
    expect(chromium.errors).toEqual([]);
  }, 60_000);

  it('renders every page light and dark, in English and Chinese, on a desktop and a phone, without console errors', async () => {
    const signedIn = await chromium.openContext(englishLight);
    const cookies: Cookie[] = await chromium.signInWithPassword(await signedIn.newPage(), gateway.url, user.email, password);
    await signedIn.close();

    for (const look of looks) {
      for (const [viewportName, viewport] of Object.entries(viewports)) {
        const anonymous = await chromium.openContext(look, viewport);
        const page = await anonymous.newPage();
        await page.goto(`${gateway.url}/sign-in`);
        await page.locator('form button[type="submit"]').waitFor();
        await chromium.screenshot(page, `sign-in-${look.name}-${viewportName}`);
        await page.goto(`${gateway.url}/setup?token=not-needed`);
        await page.locator('main a[href="/sign-in"]').waitFor();
        await chromium.screenshot(page, `setup-${look.name}-${viewportName}`);
        await anonymous.close();

        const context = await chromium.openContext(look, viewport);
        await context.addCookies(cookies);
        const keysPage = await context.newPage();
        await keysPage.goto(`${gateway.url}/keys`);
        await keysPage.getByRole('cell', { name: 'browser key', exact: true }).waitFor();
        expect(await keysPage.evaluate<string>('document.documentElement.lang')).toBe(look.locale === 'zh-CN' ? 'zh-CN' : 'en');
        expect(await keysPage.evaluate<string>('document.documentElement.dataset.mantineColorScheme')).toBe(look.colorScheme);
        await chromium.screenshot(keysPage, `keys-${look.name}-${viewportName}`);
        await context.close();
      }
    }
    expect(chromium.errors).toEqual([]);
  }, 180_000);
});
