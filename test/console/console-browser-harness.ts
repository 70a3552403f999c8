// What every browser test of the console shares: Debian's Chromium through playwright-core (never a downloaded
// build), contexts in the four looks that record every browser console error, screenshots under
// test-results/console/, and a password sign-in.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Cookie, type Page } from 'playwright-core';
import { describe } from 'vitest';
import { defaultConsoleDirectory } from '../../src/config/gateway-config.js';

/** Debian's Chromium (scripts/install-browser.sh, .ci/run); GATEWAY_CHROMIUM_PATH points elsewhere. */
export const chromiumPath = process.env.GATEWAY_CHROMIUM_PATH ?? '/usr/bin/chromium';
/** In CI the browser tests must run: a missing Chromium fails them instead of skipping them. */
const browserRequired = Boolean(process.env.CI || process.env.GATEWAY_REQUIRE_BROWSER);
const screenshotDirectory = path.resolve('test-results', 'console');

/** `describe` for browser suites: skipped only outside CI on a machine without Chromium. */
export const describeInBrowser = describe.skipIf(!browserRequired && !existsSync(chromiumPath));

/** A light or dark, English or Chinese rendering of the console. */
export interface Look {
  name: string;
  locale: 'en-US' | 'zh-CN';
  colorScheme: 'light' | 'dark';
}

/** The four looks every page is photographed in. */
export const looks: readonly Look[] = [
  { name: 'en-light', locale: 'en-US', colorScheme: 'light' },
  { name: 'en-dark', locale: 'en-US', colorScheme: 'dark' },
  { name: 'zh-light', locale: 'zh-CN', colorScheme: 'light' },
  { name: 'zh-dark', locale: 'zh-CN', colorScheme: 'dark' },
];

/** The English light look, for flows that do not photograph every look. */
export const englishLight: Look = looks[0]!;

/** A desktop and a phone viewport. */
export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** A launched Chromium with the helpers a browser test needs. */
export interface ConsoleBrowser {
  browser: Browser;
  /** every console error and uncaught page error so far, with the page it happened on */
  errors: string[];
  /** A new context in `look`; its pages record their errors in `errors`. */
  openContext(look: Look, viewport?: { width: number; height: number }): Promise<BrowserContext>;
  /** Saves a full-page screenshot as test-results/console/<name>.png. */
  screenshot(page: Page, name: string): Promise<void>;
  /** Signs in with email and password on the sign-in page and waits to land on `landing` (a path pattern). */
  signInWithPassword(page: Page, gatewayUrl: string, email: string, password: string, landing?: RegExp): Promise<Cookie[]>;
  close(): Promise<void>;
}

/** Launches Debian's Chromium for a browser suite; fails clearly when the console is not built. */
export async function launchConsoleBrowser(): Promise<ConsoleBrowser> {
  if (!existsSync(path.join(defaultConsoleDirectory, 'index.html'))) {
    throw new Error(`The console is not built in ${defaultConsoleDirectory}: run npm run build:console (npm install does it).`);
  }
  await mkdir(screenshotDirectory, { recursive: true });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    // Root needs --no-sandbox; the networking switches keep Chromium from calling out of the closed network.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const errors: string[] = [];

  function watchErrors(page: Page): void {
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  }

  return {
    browser,
    errors,
    async openContext(look, viewport = viewports.desktop) {
      const context = await browser.newContext({ locale: look.locale, colorScheme: look.colorScheme, viewport });
      // A step that cannot happen fails within the test's time, naming the step, instead of timing the test out.
      context.setDefaultTimeout(10_000);
      context.on('page', watchErrors);
      return context;
    },
    async screenshot(page, name) {
      await page.screenshot({ path: path.join(screenshotDirectory, `${name}.png`), fullPage: true });
    },
    async signInWithPassword(page, gatewayUrl, email, password, landing = /\/dashboard$/) {
      if (!page.url().includes('/sign-in')) await page.goto(`${gatewayUrl}/sign-in`);
      await page.getByLabel('Email').fill(email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(landing);
      return page.context().cookies();
    },
    close: () => browser.close(),
  };
}
