// The console's layout in a real browser: at 1280x800 every navigation item of an administrator is visible and
// clickable (none hides behind "Sign out"), and on a 390x844 phone the Channels table keeps its base URL readable
// (the table scrolls sideways instead of squeezing the column).
import type { Cookie, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../../src/accounts/password-hash.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import { startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';
import { describeInBrowser, englishLight, launchConsoleBrowser, looks, viewports, type ConsoleBrowser, type Look } from './console-browser-harness.js';

const password = 'a console layout password';
const baseUrl = 'https://api.layout-vendor.example.test/v1';

/** The admin navigation's links in both languages, in order, with the path each leads to. */
const adminPaths = ['/dashboard', '/keys', '/top-up', '/logs', '/ledger', '/models', '/settings', '/admin/users', '/admin/groups', '/admin/channels', '/admin/orders', '/admin/redemption-codes', '/admin/logs', '/admin/audit-log', '/admin/status'];

/** A box on the page, as Playwright measures it. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The page's globals the checks use (the test project has no DOM library). */
interface PageGlobals {
  document: { elementFromPoint(x: number, y: number): unknown; documentElement: { scrollWidth: number } };
  getComputedStyle(element: unknown): { lineHeight: string; overflowX: string };
}

function overlaps(first: Box, second: Box): boolean {
  return first.x < second.x + second.width && second.x < first.x + first.width && first.y < second.y + second.height && second.y < first.y + first.height;
}

describeInBrowser('the console layout in Chromium', () => {
  let gateway: TestGateway;
  let chromium: ConsoleBrowser;
  let admin: UserRecord;
  let adminCookies: Cookie[];

  beforeAll(async () => {
    gateway = await startTestGateway();
    admin = await gateway.store.createUser({ email: `${uniqueName('admin')}@example.test`, displayName: 'Layout admin', role: 'admin', passwordHash: await hashPassword(password) });
    await gateway.createChannel({ name: 'layout-vendor', baseUrl, secret: 'sk-layout-0123456789', models: ['gpt-4o-mini', 'gpt-4o'] });
    chromium = await launchConsoleBrowser();
    const context = await chromium.openContext(englishLight);
    adminCookies = await chromium.signInWithPassword(await context.newPage(), gateway.url, admin.email, password);
    await context.close();
  });

  afterAll(async () => {
    await chromium?.close();
    await gateway?.close();
  });

  async function adminPage(look: Look, viewport: { width: number; height: number }): Promise<Page> {
    const context = await chromium.openContext(look, viewport);
    await context.addCookies(adminCookies);
    return context.newPage();
  }

  it('shows every admin menu item at 1280x800, none under "Sign out", and each one opens its page', { timeout: 90_000 }, async () => {
    for (const look of [looks[0]!, looks[2]!]) {
      const page = await adminPage(look, viewports.desktop);
      await page.goto(`${gateway.url}/dashboard`);
      const navigation = page.getByRole('navigation');
      const signOut = navigation.getByRole('button', { name: /^(Sign out|退出登录)$/ });
      await signOut.waitFor();
      const links = navigation.getByRole('link');
      expect(await links.count()).toBe(adminPaths.length);
      for (const [index, path] of adminPaths.entries()) {
        const link = links.nth(index);
        // Visible as the page opens, without scrolling the navigation: what the user sees at first is the whole menu.
        const linkBox = await link.boundingBox();
        const signOutBox = await signOut.boundingBox();
        expect(linkBox && signOutBox, path).toBeTruthy();
        expect(overlaps(linkBox!, signOutBox!), `${look.name}: ${path} is under Sign out`).toBe(false);
        expect(linkBox!.y + linkBox!.height, `${look.name}: ${path} is below the window`).toBeLessThanOrEqual(viewports.desktop.height);
        const hit = await link.evaluate((element, point) => element.contains((globalThis as unknown as PageGlobals).document.elementFromPoint(point.x, point.y) as typeof element | null), { x: linkBox!.x + linkBox!.width / 2, y: linkBox!.y + linkBox!.height / 2 });
        expect(hit, `${look.name}: ${path} is covered`).toBe(true);
        await link.click({ timeout: 3_000 });
        await page.waitForURL(new RegExp(`${path}$`));
      }
      await chromium.screenshot(page, `layout-navigation-${look.name}`);
      await page.context().close();
    }
  });

  it('lets the Channels table scroll sideways on a 390x844 phone, the base URL on one readable line', async () => {
    const page = await adminPage(englishLight, viewports.phone);
    await page.goto(`${gateway.url}/admin/channels`);
    const row = page.getByTestId('channel-row-layout-vendor');
    await row.waitFor();
    const url = row.getByText(baseUrl, { exact: true });
    const box = await url.boundingBox();
    const lineHeight = await url.evaluate((element) => Number.parseFloat((globalThis as unknown as PageGlobals).getComputedStyle(element).lineHeight));
    expect(box!.height, 'the base URL wraps').toBeLessThanOrEqual(lineHeight * 1.5);
    // The page itself does not scroll sideways: the table's own container does.
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.phone.width);
    const scroller = await url.evaluate((element) => {
      let parent = element.parentElement;
      while (parent && !(parent.scrollWidth > parent.clientWidth && (globalThis as unknown as PageGlobals).getComputedStyle(parent).overflowX !== 'visible')) parent = parent.parentElement;
      return parent ? { scrollWidth: parent.scrollWidth, clientWidth: parent.clientWidth } : null;
    });
    expect(scroller, 'no horizontally scrolling container holds the table').not.toBeNull();
    await chromium.screenshot(page, 'layout-channels-phone');
    await page.context().close();
  });
});
