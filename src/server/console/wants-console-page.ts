import type { FastifyRequest } from 'fastify';

/** Path prefixes whose unknown paths keep the gateway's OpenAI-shaped 404 instead of the console page. */
const apiPrefixes = ['/v1', '/api'];

/**
 * True for a request the console's page should answer although no route matched: a GET or HEAD outside /v1 and
 * /api from a browser navigating (it accepts HTML). The single-page app then shows the page for that path.
 */
export function wantsConsolePage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  if (apiPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return false;
  return (request.headers.accept ?? '').includes('text/html');
}
