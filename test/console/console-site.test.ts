// The gateway serves the built console at / on the same origin as /api, with a single-page fallback for browsers
// and strict security headers, while /v1 and /api keep their OpenAI-shaped 404s.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

const indexHtml = '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>';
const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

async function get(gateway: TestGateway, pathname: string, accept = browserAccept, method: 'GET' | 'HEAD' | 'POST' = 'GET') {
  const response = await request(`${gateway.url}${pathname}`, { method, headers: { accept } });
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

function expectSecurityHeaders(headers: Record<string, string | string[] | undefined>): void {
  const policy = String(headers['content-security-policy']);
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("connect-src 'self'");
  expect(policy).not.toMatch(/script-src[^;]*unsafe/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
}

describe('a gateway with a built console', () => {
  let consoleDirectory: string;
  let gateway: TestGateway;

  beforeAll(async () => {
    consoleDirectory = await mkdtemp(path.join(os.tmpdir(), 'gateway-console-'));
    await mkdir(path.join(consoleDirectory, 'assets'));
    await writeFile(path.join(consoleDirectory, 'index.html'), indexHtml);
    await writeFile(path.join(consoleDirectory, 'assets', 'app-abc123.js'), 'console.log("console");');
    await mkdir(path.join(consoleDirectory, 'assets', 'fonts'));
    await writeFile(path.join(consoleDirectory, 'assets', 'fonts', 'inter-def456.woff2'), 'font bytes');
    await writeFile(path.join(consoleDirectory, '.env'), 'SECRET=1');
    await writeFile(path.join(consoleDirectory, 'assets', '.cache'), 'not for clients');
    gateway = await startTestGateway({ config: { consoleDirectory } });
  });

  afterAll(async () => {
    await gateway?.close();
    await rm(consoleDirectory, { recursive: true, force: true });
  });

  it('serves the page at / with strict security headers and no caching', async () => {
    const answer = await get(gateway, '/');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.text).toBe(indexHtml);
    expectSecurityHeaders(answer.headers);
  });

  it('serves the page for any other path a browser navigates to, so client routes survive a reload', async () => {
    for (const pathname of ['/keys', '/admin/users?tab=1', '/setup?token=abc', '/index.html']) {
      const answer = await get(gateway, pathname);
      expect(answer.status, pathname).toBe(200);
      expect(answer.text, pathname).toBe(indexHtml);
      expectSecurityHeaders(answer.headers);
    }
    expect((await get(gateway, '/keys', browserAccept, 'HEAD')).status).toBe(200);
  });

  it('serves hashed assets with their type, for good, with the same headers', async () => {
    const answer = await get(gateway, '/assets/app-abc123.js', '*/*');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/javascript/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(answer.headers);
  });

  it('serves files in nested folders of the build, and HEAD for them', async () => {
    const answer = await get(gateway, '/assets/fonts/inter-def456.woff2', '*/*');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('font bytes');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(gateway, '/assets/fonts/inter-def456.woff2', '*/*', 'HEAD')).status).toBe(200);
  });

  it('never serves dot files of the build folder', async () => {
    for (const pathname of ['/.env', '/assets/.cache']) {
      const answer = await get(gateway, pathname, '*/*');
      expect(answer.status, pathname).toBe(404);
      expect(answer.text, pathname).not.toContain('SECRET');
    }
  });

  it('keeps OpenAI-shaped 404s for /v1 and /api, for missing assets and for callers that do not want HTML', async () => {
    for (const [pathname, accept] of [
      ['/v1/fine_tuning/jobs', browserAccept],
      ['/v1', browserAccept],
      ['/api/nothing-here', browserAccept],
      ['/assets/missing.js', '*/*'],
      ['/keys', 'application/json'],
    ] as const) {
      const answer = await get(gateway, pathname, accept);
      expect(answer.status, pathname).toBe(404);
      expect(JSON.parse(answer.text), pathname).toMatchObject({ error: { code: 'not_found', type: 'invalid_request_error' } });
    }
  });

  it('does not answer writes with the page', async () => {
    const answer = await get(gateway, '/keys', browserAccept, 'POST');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('a gateway without a built console', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ config: { consoleDirectory: path.join(os.tmpdir(), 'no-console-built-here') } });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('says so at / and keeps serving the API', async () => {
    const page = await get(gateway, '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('The web console is not built');
    expectSecurityHeaders(page.headers);
    const providers = await get(gateway, '/api/auth/providers', 'application/json');
    expect(providers.status).toBe(200);
    expect((await get(gateway, '/keys')).status).toBe(404);
  });
});
