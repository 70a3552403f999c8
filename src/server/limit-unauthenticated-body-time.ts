import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import { GatewayError } from '../core/gateway-error.js';

/**
 * Gives the body of a request that carries no valid API key or session (sign-in, setup, payment webhooks) `timeoutMs`
 * to arrive (0 = no limit beyond the request timeout): a body still incomplete then gets 408 `request_timeout` and the
 * connection is closed. Anyone can send such requests, so they must not hold a socket and a parser for minutes.
 */
export function limitUnauthenticatedBodyTime(app: FastifyInstance, timeoutMs: number): void {
  if (timeoutMs <= 0) return;
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (isAuthenticated(request) || !hasBody(request)) {
      done(null, payload);
      return;
    }
    // The parser reads this stream; failing it (not the socket) lets the 408 be written before the connection closes.
    const guarded = new PassThrough();
    const timer = setTimeout(() => {
      payload.unpipe(guarded);
      const seconds = Math.ceil(timeoutMs / 1000);
      guarded.destroy(
        new GatewayError(
          'request_timeout',
          `The request body did not arrive within ${seconds} s. Requests without an API key or session must send their body at once.`,
          { headers: { connection: 'close' } },
        ),
      );
    }, timeoutMs);
    timer.unref();
    const stop = (): void => clearTimeout(timer);
    guarded.once('end', stop);
    guarded.once('close', stop);
    reply.raw.once('close', stop);
    payload.once('error', (error) => guarded.destroy(error));
    payload.pipe(guarded);
    done(null, guarded);
  });
}

/** True once an `onRequest` hook found the caller: an API key (/v1) or a console session or admin token (/api). */
function isAuthenticated(request: FastifyRequest): boolean {
  return Boolean(request.principal) || Boolean(request.apiCaller);
}

function hasBody(request: FastifyRequest): boolean {
  const { headers } = request;
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}
