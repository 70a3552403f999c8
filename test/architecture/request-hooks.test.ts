// The hooks every /v1 request runs are part of its cost. @fastify/multipart adds an async onResponse hook (it deletes
// uploads saved to disk, which the gateway never saves), so it is registered only in the scope of the routes that take
// a form; registered app-wide, every chat completion ran it (about 2 % of a request's allocations, docs/BENCHMARKS.md).
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** The hook names Fastify prints under one route of `printRoutes({ includeHooks: true, commonPrefix: false })`. */
function hooksOfRoute(printedRoutes: string, method: string, url: string): string[] {
  const lines = printedRoutes.split('\n');
  // A route's line: `├── v1/chat/completions (POST)`, its path without the root's slash, then its methods.
  const start = lines.findIndex((line) => {
    const route = /── \/?(\S+) \(([^)]+)\)$/.exec(line);
    return route !== null && `/${route[1]}` === url && route[2]!.split(', ').includes(method);
  });
  if (start < 0) throw new Error(`${method} ${url} is not among the printed routes`);
  const hooks: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const hook = /• \((\w+)\)/.exec(line);
    if (!hook) break;
    hooks.push(hook[1]!);
  }
  return hooks;
}

describe('hooks of the /v1 routes', () => {
  let gateway: TestGateway;
  let printedRoutes: string;

  beforeAll(async () => {
    gateway = await startTestGateway();
    printedRoutes = gateway.running.app.printRoutes({ includeHooks: true, commonPrefix: false });
  });

  afterAll(async () => {
    await gateway?.close();
    await rm(gateway.config.dataDirectory, { recursive: true, force: true });
  });

  it('runs no onResponse hook for JSON endpoints', () => {
    for (const url of ['/v1/chat/completions', '/v1/completions', '/v1/embeddings', '/v1/messages', '/v1/responses']) {
      const hooks = hooksOfRoute(printedRoutes, 'POST', url);
      // The scope's own onRequest hook is there: the parse found this route's hooks.
      expect(hooks, url).toContain('onRequest');
      expect(hooks, url).not.toContain('onResponse');
    }
  });

  it('keeps the multipart plugin, and its onResponse hook, on the upload endpoints', () => {
    for (const url of ['/v1/images/edits', '/v1/audio/transcriptions', '/v1/videos']) {
      expect(hooksOfRoute(printedRoutes, 'POST', url), url).toContain('onResponse');
    }
  });
});
