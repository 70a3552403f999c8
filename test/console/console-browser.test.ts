// The console in a real browser (playwright-core driving Debian's Chromium, never a downloaded build): sign in with a
// password, create a key, copy it, and call the gateway with it through the official openai SDK; no browser console
// errors; a screenshot of every page in light and dark, English and Chinese, under test-results/console/.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/accounts/password-hash.js';
import { defaultConsoleDirectory } from '../../src/config/gateway-config.js';
import type { ModelGroupRecord, UserRecord } from '../../src/storage/store-records.js';
import { createOpenAiClient, startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

/** Debian's Chromium (scripts/install-browser.sh, .ci/run); GATEWAY_CHROMIUM_PATH points elsewhere. */
const chromiumPath = process.env.GATEWAY_CHROMIUM_PATH ?? '/usr/bin/chromium';
/** In CI the browser test must run: a missing Chromium fails it instead of skipping it. */
const browserRequired = Boolean(process.env.CI || process.env.GATEWAY_REQUIRE_BROWSER);
const screenshotDirectory = path.resolve('test-results', 'console');
const channelSecret = 'sk-upstream-console-browser';
const password = 'a console password';

/** A light or dark, English or Chinese rendering of the console. */
interface Look {
  name: string;
  locale: 'en-US' | 'zh-CN';
  colorScheme: 'light' | 'dark';
}

const looks: Look[] = [
  { name: 'en-light', locale: 'en-US', colorScheme: 'light' },
  { name: 'en-dark', locale: 'en-US', colorScheme: 'dark' },
  { name: 'zh-light', locale: 'zh-CN', colorScheme: 'light' },
  { name: 'zh-dark', locale: 'zh-CN', colorScheme: 'dark' },
];

describe.skipIf(!browserRequired && !existsSync(chromiumPath))('the console in Chromium', () => {
  let simulator: OpenAiSimulator;
  let gateway: TestGateway;
  let browser: Browser;
  let user: UserRecord;
  let group: ModelGroupRecord;
  /** every console error and uncaught page error, with the page it happened on */
  const browserErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(path.join(defaultConsoleDirectory, 'index.html'))) {
      throw new Error(`The console is not built in ${defaultConsoleDirectory}: run npm run build:console (npm install does it).`);
    }
    await mkdir(screenshotDirectory, { recursive: true });
    simulator = await startOpenAiSimulator({ apiKey: channelSecret });
    gateway = await startTestGateway();
    await gateway.createChannel({ baseUrl: simulator.url, secret: channelSecret, models: ['gpt-4o-mini'] });
    group = await gateway.createGroup(['gpt-4o-mini']);
    user = await gateway.store.createUser({ email: `${uniqueName('browser')}@example.test`, displayName: 'Browser user', role: 'user', passwordHash: await hashPassword(password) });
    await gateway.store.grantUserGroups(user.id, [group.id]);
    await gateway.refreshRouting();
    browser = await chromium.launch({
      executablePath: chromiumPath,
      // Root needs --no-sandbox; the networking switches keep Chromium from calling out of the closed network.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    console.info(`console browser test: Chromium ${browser.version()}`);
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await simulator?.close();
  });

  async function openContext(look: Look, viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
    const context = await browser.newContext({ locale: look.locale, colorScheme: look.colorScheme, viewport });
    // A step that cannot happen fails within the test's time, naming the step, instead of timing the test out.
    context.setDefaultTimeout(10_000);
    context.on('page', watchErrors);
    return context;
  }

  function watchErrors(page: Page): void {
    page.on('console', (message) => {
      if (message.type() === 'error') browserErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => browserErrors.push(`${page.url()}: ${error.message}`));
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(screenshotDirectory, `${name}.png`), fullPage: true });
  }

  it('signs in with a password, creates and copies a key, and the key works with the openai SDK', async () => {
    const context = await openContext(looks[0]!);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
    const page = await context.newPage();

    await page.goto(`${gateway.url}/keys`);
    await page.waitForURL(/\/sign-in\?returnTo=%2Fkeys/);
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/keys$/);
    await page.getByText('You have no keys yet.').waitFor();

    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('browser key');
    await dialog.getByRole('combobox', { name: 'Group', exact: true }).click();
    await page.getByRole('option', { name: new RegExp(`^${group.name} `) }).click();
    await screenshot(page, 'keys-create-en-light');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();

    const secretText = await page.getByTestId('new-key-secret').textContent();
    await page.getByRole('button', { name: 'Copy key', exact: true }).click();
    await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe(secretText);
    expect(copied).toMatch(/^sk-/);
    await expect.poll(() => page.getByText(`${gateway.url}/v1/chat/completions`).count()).toBeGreaterThan(0);
    await screenshot(page, 'keys-secret-en-light');

    const completion = await createOpenAiClient(gateway, copied).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.choices[0]?.message.content).toBe('Echo: hello');

    await page.getByRole('button', { name: 'I have copied it', exact: true }).click();
    await page.getByRole('cell', { name: 'browser key', exact: true }).waitFor();
    await context.close();
    expect(browserErrors).toEqual([]);
  }, 60_000);

  it('renders every page light and dark, in English and Chinese, on a desktop and a phone, without console errors', async () => {
    const signedIn = await openContext(looks[0]!);
    const signInPage = await signedIn.newPage();
    await signInPage.goto(`${gateway.url}/sign-in`);
    await signInPage.getByLabel('Email').fill(user.email);
    await signInPage.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await signInPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await signInPage.waitForURL(/\/keys$/);
    const cookies = await signedIn.cookies();
    await signedIn.close();

    for (const look of looks) {
      for (const viewport of [{ name: 'desktop', size: { width: 1280, height: 800 } }, { name: 'phone', size: { width: 390, height: 844 } }]) {
        const anonymous = await openContext(look, viewport.size);
        const page = await anonymous.newPage();
        await page.goto(`${gateway.url}/sign-in`);
        await page.locator('form button[type="submit"]').waitFor();
        await screenshot(page, `sign-in-${look.name}-${viewport.name}`);
        await page.goto(`${gateway.url}/setup?token=not-needed`);
        await page.locator('main a[href="/sign-in"]').waitFor();
        await screenshot(page, `setup-${look.name}-${viewport.name}`);
        await anonymous.close();

        const context = await openContext(look, viewport.size);
        await context.addCookies(cookies);
        const keysPage = await context.newPage();
        await keysPage.goto(`${gateway.url}/keys`);
        await keysPage.getByRole('cell', { name: 'browser key', exact: true }).waitFor();
        expect(await keysPage.evaluate<string>('document.documentElement.lang')).toBe(look.locale === 'zh-CN' ? 'zh-CN' : 'en');
        expect(await keysPage.evaluate<string>('document.documentElement.dataset.mantineColorScheme')).toBe(look.colorScheme);
        await screenshot(keysPage, `keys-${look.name}-${viewport.name}`);
        await keysPage.goto(`${gateway.url}/dashboard`);
        await keysPage.locator('main h2').waitFor();
        await screenshot(keysPage, `placeholder-${look.name}-${viewport.name}`);
        await context.close();
      }
    }
    expect(browserErrors).toEqual([]);
  }, 180_000);
});
