import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';
import type { RefusalCounts } from '../observability/refusal-counts.js';
import { callWhenResponseEnds } from './call-when-response-ends.js';
import { isUncappedRoute } from './limit-in-flight-requests.js';

/**
 * Caps the requests one client address has in flight at once (0 = no cap), counted from their first byte
 * (`onRequest`), before authentication and before the body: slow bodies from one address then hold at most this many
 * of the process's requests, and other addresses are served. Beyond the cap a request gets 429 `rate_limit_exceeded`
 * with `Retry-After` unread. The address is `request.ip`: behind a reverse proxy named in GATEWAY_TRUST_PROXY, the
 * client's own address from `X-Forwarded-For`; otherwise the socket's, which every client of an untrusted proxy shares.
 * Refusals are counted in `refusals` when given.
 */
export function limitInFlightPerAddress(app: FastifyInstance, maxPerAddress: number, refusals?: RefusalCounts): void {
  if (maxPerAddress <= 0) return;
  const inFlightByAddress = new Map<string, number>();
  app.addHook('onRequest', (request, reply, done) => {
    if (isUncappedRoute(request.routeOptions.url)) {
      done();
      return;
    }
    const address = request.ip;
    const inFlight = inFlightByAddress.get(address) ?? 0;
    if (inFlight >= maxPerAddress) {
      refusals?.count('per_address_cap');
      const message = `Too many requests in flight from ${address}: at most ${maxPerAddress} at once. Wait for an answer and retry.`;
      done(new GatewayError('rate_limit_exceeded', message, { headers: { 'retry-after': '1' } }));
      return;
    }
    inFlightByAddress.set(address, inFlight + 1);
    callWhenResponseEnds(request, reply, () => {
      const left = (inFlightByAddress.get(address) ?? 1) - 1;
      if (left > 0) inFlightByAddress.set(address, left);
      else inFlightByAddress.delete(address);
    });
    done();
  });
}
