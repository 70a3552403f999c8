// A tiny browser for sign-in tests: keeps cookies per host and port (honouring Path and Max-Age=0), sends them, and
// follows redirects by hand so a test sees every hop (gateway -> provider -> gateway callback -> return path).
import { request } from 'undici';

/** One answer as the browser saw it. */
export interface BrowserResponse {
  url: string;
  status: number;
  /** the absolute Location of a redirect, or undefined */
  location: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

interface StoredCookie {
  value: string;
  path: string;
}

/** A cookie jar and an HTTP client that never follows redirects on its own. */
export class CookieBrowser {
  private readonly jar = new Map<string, Map<string, StoredCookie>>();

  /** A request like a browser's: the jar's cookies for the URL go along; Set-Cookie answers update the jar. */
  async send(
    url: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<BrowserResponse> {
    const target = new URL(url);
    const cookieHeader = this.cookieHeaderFor(target);
    const response = await request(target, {
      method: (options.method ?? 'GET') as 'GET',
      headers: { ...(cookieHeader ? { cookie: cookieHeader } : {}), ...options.headers },
      body: options.body,
    });
    const text = await response.body.text();
    this.store(target, response.headers['set-cookie']);
    const location = response.headers.location;
    return {
      url,
      status: response.statusCode,
      location: typeof location === 'string' ? new URL(location, target).toString() : undefined,
      headers: response.headers,
      text,
    };
  }

  /** GETs the URL and follows redirects until one leaves `while` (default: any redirect) or 20 hops; returns every hop. */
  async follow(
    url: string,
    options: { until?: (response: BrowserResponse) => boolean; headers?: Record<string, string> } = {},
  ): Promise<BrowserResponse[]> {
    const hops: BrowserResponse[] = [];
    let next: string | undefined = url;
    while (next !== undefined && hops.length < 20) {
      const response = await this.send(next, { headers: options.headers });
      hops.push(response);
      if (options.until?.(response)) break;
      next = response.status >= 300 && response.status < 400 ? response.location : undefined;
    }
    return hops;
  }

  /** The value of a cookie the jar holds for an origin, or undefined. */
  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(new URL(origin).host)?.get(name)?.value;
  }

  /** Sets or replaces a cookie, as a test that tampers with one would. */
  setCookie(origin: string, name: string, value: string, path = '/'): void {
    this.cookiesOf(new URL(origin).host).set(name, { value, path });
  }

  /** Forgets every cookie of an origin, as signing out at that site would. */
  clearCookies(origin: string): void {
    this.jar.delete(new URL(origin).host);
  }

  private cookieHeaderFor(target: URL): string {
    const cookies = this.jar.get(target.host);
    if (!cookies) return '';
    return [...cookies.entries()]
      .filter(
        ([, cookie]) =>
          target.pathname === cookie.path ||
          target.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
      )
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  private store(target: URL, setCookie: string | string[] | undefined): void {
    for (const line of setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      const path = attributes.find((attribute) => attribute.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const removed =
        attributes.some((attribute) => attribute.toLowerCase() === 'max-age=0') ||
        /expires=thu, 01 jan 1970/i.test(line);
      const cookies = this.cookiesOf(target.host);
      const existing = cookies.get(name);
      if (removed) {
        if (existing?.path === path) cookies.delete(name);
      } else {
        cookies.set(name, { value, path });
      }
    }
  }

  private cookiesOf(host: string): Map<string, StoredCookie> {
    let cookies = this.jar.get(host);
    if (!cookies) {
      cookies = new Map();
      this.jar.set(host, cookies);
    }
    return cookies;
  }
}
