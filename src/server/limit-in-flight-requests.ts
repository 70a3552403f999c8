import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';
import type { RefusalCounts } from '../observability/refusal-counts.js';
import { callWhenResponseEnds } from './call-when-response-ends.js';

/** Routes a load balancer or scraper must reach even when the gateway is at its cap. */
const uncappedRoutes = new Set(['/healthz', '/readyz', '/metrics']);

/** True for a route a load balancer or scraper must reach even when the gateway is at its caps. */
export function isUncappedRoute(url: string | undefined): boolean {
  return uncappedRoutes.has(url ?? '');
}

/**
 * Caps the requests the process serves at once (0 = no cap). A request counts once it is authenticated (the /v1 key
 * and /api session hooks run in `onRequest`) and its JSON body has arrived (`preHandler`), so slow or unauthenticated
 * bodies cannot hold the slots; beyond the cap it gets 503 `service_unavailable` with `Retry-After`. Multipart uploads
 * are read by their handler, so they count once authenticated. While the app shuts down, every request gets the 503
 * before its body is read: Fastify's own closing answer is not in OpenAI's shape (`/readyz` answers for itself, with
 * its own 503). Refusals are counted in `refusals` when given.
 */
export function limitInFlightRequests(app: FastifyInstance, maxInFlight: number, refusals?: RefusalCounts): void {
  let inFlight = 0;
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (closing && request.routeOptions.url !== '/readyz') {
      refusals?.count('shutting_down');
      done(
        new GatewayError('service_unavailable', 'The gateway is shutting down; retry in a moment.', {
          headers: { 'retry-after': '1', connection: 'close' },
        }),
      );
      return;
    }
    done();
  });
  if (maxInFlight <= 0) return;
  app.addHook('preHandler', (request, reply, done) => {
    if (isUncappedRoute(request.routeOptions.url)) {
      done();
      return;
    }
    if (inFlight >= maxInFlight) {
      refusals?.count('in_flight_cap');
      done(
        new GatewayError(
          'service_unavailable',
          'The gateway is serving as many requests as it may at once; retry in a moment.',
          { headers: { 'retry-after': '1' } },
        ),
      );
      return;
    }
    inFlight += 1;
    callWhenResponseEnds(request, reply, () => {
      inFlight -= 1;
    });
    done();
  });
}
