import type { FastifyInstance } from 'fastify';

/**
 * What every `/api` and `/v1` answer carries: never kept by a browser or proxy cache (answers hold keys, secrets,
 * balances and model output) and never sniffed as another content type. Streams get them in their head
 * (FastifyClientSink), every other answer from the hook below.
 */
export const answerSecurityHeaders: Readonly<Record<'cache-control' | 'x-content-type-options', string>> =
  Object.freeze({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });

/** Adds {@link answerSecurityHeaders} to each answer under `/api` and `/v1` (`/v1beta` too): one header group each. */
export function addAnswerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (carriesSecurityHeaders(request.url)) void reply.headers(answerSecurityHeaders);
    done(null, payload);
  });
}

/** True for the paths of the client API (`/v1...`) and the console API (`/api/...`). */
export function carriesSecurityHeaders(url: string): boolean {
  return url.startsWith('/v1') || url.startsWith('/api/') || url === '/api';
}
