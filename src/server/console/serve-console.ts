import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { consoleSecurityHeaders } from './console-security-headers.js';
import { wantsConsolePage } from './wants-console-page.js';

/** Folder of the built console's content-hashed files: cached for good, since a new build gives new names. */
const hashedAssetsFolder = `${path.sep}assets${path.sep}`;

/** What `/` says when the gateway runs without a built console (the API works regardless). */
const notBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Model Gateway</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
<h1>Model Gateway</h1>
<p>The gateway is running: the OpenAI-compatible API is at <code>/v1</code> and the console API at <code>/api</code>.</p>
<p>The web console is not built. Run <code>npm run build:console</code> (or <code>npm install</code>) and restart the gateway,
or point <code>GATEWAY_CONSOLE_DIR</code> at a built console.</p>
</body></html>
`;

/**
 * Serves the web console from `directory` (its `index.html` and `assets/`) on the same origin as /api: the page
 * at `/` and, for a browser navigating to any other path outside /v1 and /api, the same page (the single-page app
 * routes on the client). Without a built console `/` says so. Call before the app's error handlers are installed,
 * so the page is served before the not-found handler answers.
 */
export async function serveConsole(app: FastifyInstance, directory: string | undefined): Promise<void> {
  const indexHtml = directory === undefined ? undefined : await readFile(path.join(directory, 'index.html'), 'utf8').catch(() => undefined);
  if (directory === undefined || indexHtml === undefined) {
    app.get('/', async (_request, reply) => sendPage(reply, notBuiltPage));
    return;
  }
  const sendIndex = (reply: FastifyReply) => sendPage(reply, indexHtml);
  app.get('/', async (_request, reply) => sendIndex(reply));
  // A callback hook, not an async one: it runs on every request, /v1 included, and should cost no promise there.
  app.addHook('onRequest', (request, reply, done) => {
    // Answering from a callback hook means not calling `done`: the not-found handler never runs.
    if (request.is404 && wantsConsolePage(request)) sendIndex(reply);
    else done();
  });
  // The plugin only sends files here (`reply.sendFile`); the routes are the gateway's own, one per built file.
  await app.register(fastifyStatic, {
    root: directory,
    serve: false,
    serveDotFiles: false,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      void reply.headers(consoleSecurityHeaders).header('cache-control', filePath.includes(hashedAssetsFolder) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Any other path falls through to the hook above or to a 404.
  for (const file of await listBuiltFiles(directory)) app.get(`/${file}`, (_request, reply) => reply.sendFile(file));
}

/**
 * The built console's files, as URL paths under `directory`, without `index.html` (served above) and dot files.
 * Listed with `readdir`: the plugin's own listing (`wildcard: false`) goes through glob, whose path cache normalises
 * every name with ICU, which leaves about 1.3 MB of ICU's tables resident for the process's life.
 */
async function listBuiltFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => file !== 'index.html' && !file.split('/').some((segment) => segment.startsWith('.')));
}

function sendPage(reply: FastifyReply, html: string): FastifyReply {
  // no-cache: a new build's page (naming new assets) is picked up at once.
  return reply.headers(consoleSecurityHeaders).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
}
