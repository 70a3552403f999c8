import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Payment provider webhooks carry no cookie and no Fetch Metadata; their signature authenticates them. */
const exemptPathPrefix = '/api/payments/';

/**
 * CSRF protection for cookie-authenticated /api calls (session or admin token in the cookie): a state-changing request
 * (POST, PUT, PATCH, DELETE) passes only when `Sec-Fetch-Site` is `same-origin`, or `none` (typed by the user) with no
 * `Origin` or the gateway's own, or, from browsers that send no Fetch Metadata, when `Origin` equals the gateway's
 * public origin; otherwise 403 `forbidden`. Calls with an `Authorization: Bearer` header never come here.
 */
export function refuseCrossSiteRequest(request: FastifyRequest, publicOrigin: string): void {
  if (!unsafeMethods.has(request.method) || request.url.startsWith(exemptPathPrefix)) return;
  const fetchSite = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  if (typeof fetchSite === 'string') {
    if (fetchSite === 'same-origin') return;
    // `none` is a user's own navigation; a foreign Origin next to it means a page or extension sent it, not the user.
    if (fetchSite === 'none' && (origin === undefined || origin === publicOrigin)) return;
    throw new GatewayError(
      'forbidden',
      `Cross-site request refused (Sec-Fetch-Site: ${fetchSite.slice(0, 20)}${origin === undefined ? '' : `, Origin: ${origin.slice(0, 100)}`}): the console's own pages may change state with the session cookie, other sites may not.`,
    );
  }
  if (origin === publicOrigin) return;
  throw new GatewayError(
    'forbidden',
    "Cross-site request refused: a request authenticated by the session cookie must come from the gateway's own origin (Origin header).",
  );
}
