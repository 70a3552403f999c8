import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';

/** Routes a load balancer or scraper must reach even when the gateway is at its cap. */
const uncappedRoutes = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Caps the requests the process serves at once: beyond `maxInFlight` (0 = no cap), and while the app shuts
 * down, a request gets 503 `service_unavailable` with `Retry-After` before its body is read. Fastify's own
 * closing answer is not in OpenAI's shape, so shutdown is refused here too.
 */
export function limitInFlightRequests(app: FastifyInstance, maxInFlight: number): void {
  let inFlight = 0;
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      done(new GatewayError('service_unavailable', 'The gateway is shutting down; retry in a moment.', { headers: { 'retry-after': '1', connection: 'close' } }));
      return;
    }
    if (uncappedRoutes.has(request.routeOptions.url ?? '')) {
      done();
      return;
    }
    if (maxInFlight > 0 && inFlight >= maxInFlight) {
      done(new GatewayError('service_unavailable', 'The gateway is serving as many requests as it may at once; retry in a moment.', { headers: { 'retry-after': '1' } }));
      return;
    }
    inFlight += 1;
    // 'close' fires once for every response, finished, failed, hijacked for a stream or cut by the client (so `on`:
    // `once` would add a wrapper and a bound function to every request, kept as long as the response).
    reply.raw.on('close', () => {
      inFlight -= 1;
    });
    done();
  });
}
