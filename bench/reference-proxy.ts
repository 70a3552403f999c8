// The yardstick of the benchmark: the least an HTTP pass-through proxy can do. Node's `http` server in front,
// an undici Pool behind, bytes forwarded unchanged in both directions and streamed as they arrive.
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';

/** A running reference proxy. */
export interface ReferenceProxy {
  /** e.g. `http://127.0.0.1:PORT`; append the upstream's own paths (`/v1/chat/completions`) */
  url: string;
  close(): Promise<void>;
}

/** Where to listen and where to forward. */
export interface ReferenceProxyOptions {
  /** scheme, host and port of the upstream, e.g. `http://127.0.0.1:4000`; request paths are kept as they are */
  upstreamOrigin: string;
  /** port to listen on; 0 (default) picks a free one */
  port?: number;
  /** keep-alive connections to the upstream; unlimited by default */
  connections?: number;
}

/** Hop-by-hop headers (RFC 9110 section 7.6.1) and `host`, which the proxy must not copy. */
const hopByHopHeaders = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

/** Starts the proxy on 127.0.0.1. */
export async function startReferenceProxy(options: ReferenceProxyOptions): Promise<ReferenceProxy> {
  const pool = new Pool(options.upstreamOrigin, {
    connections: options.connections ?? null,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 300_000,
  });
  const server = http.createServer({ noDelay: true, keepAliveTimeout: 75_000 }, (request, response) => {
    forwardRequest(pool, request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.close();
    },
  };
}

async function forwardRequest(pool: Pool, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const abortController = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) abortController.abort();
  });
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let upstream: Awaited<ReturnType<Pool['request']>>;
  try {
    upstream = await pool.request({
      method: request.method as 'GET',
      path: request.url ?? '/',
      headers: copyEndToEndHeaders(request.headers),
      body: hasBody ? request : null,
      signal: abortController.signal,
    });
  } catch {
    if (!response.headersSent && !response.destroyed) {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end('bad gateway');
    }
    return;
  }
  response.writeHead(upstream.statusCode, copyEndToEndHeaders(upstream.headers as IncomingHttpHeaders));
  // An event stream's head goes out at once, as the upstream sent it; other answers leave with their first bytes.
  if (String(upstream.headers['content-type']).startsWith('text/event-stream')) response.flushHeaders();
  await pipeline(upstream.body, response);
}

function copyEndToEndHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const copied: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !hopByHopHeaders.has(name)) copied[name] = value;
  }
  return copied;
}
