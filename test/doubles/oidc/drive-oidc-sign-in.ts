// Walks a browser through oidc-provider's development login and consent pages with plain HTTP: follow redirects to a
// form, post it, repeat, until the provider redirects to the gateway's callback.
import type { BrowserResponse, CookieBrowser } from '../../helpers/cookie-browser.js';

/**
 * Follows `startUrl` through the provider's login (any password) and consent forms and returns the callback URL the
 * provider redirects to, without visiting it, so a test can send it as it is or change something first.
 */
export async function driveOidcSignIn(
  browser: CookieBrowser,
  options: { startUrl: string; issuer: string; login: string; callbackPrefix: string },
): Promise<string> {
  let next: BrowserResponse = await browser.send(options.startUrl);
  for (let step = 0; step < 20; step += 1) {
    if (next.status >= 300 && next.status < 400 && next.location !== undefined) {
      if (next.location.startsWith(options.callbackPrefix)) return next.location;
      next = await browser.send(next.location);
      continue;
    }
    const form = /<form[^>]*action="([^"]+)"[^>]*>[\s\S]*?name="prompt" value="(\w+)"/.exec(next.text);
    if (next.status !== 200 || form === null)
      throw new Error(`unexpected answer from ${next.url}: ${next.status} ${next.text.slice(0, 300)}`);
    const [, action, prompt] = form;
    const fields: Record<string, string> =
      prompt === 'login' ? { prompt, login: options.login, password: 'any password' } : { prompt: prompt! };
    next = await browser.send(new URL(action!, options.issuer).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
  throw new Error('the provider never sent the browser back to the gateway');
}
