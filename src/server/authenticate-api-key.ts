import type { FastifyRequest } from 'fastify';
import { hashApiKeySecret } from '../accounts/api-key-secret.js';
import { GatewayError } from '../core/gateway-error.js';
import type { RoutingCache } from '../routing/routing-cache.js';
import type { KeyPrincipal } from '../routing/routing-table.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the caller behind the API key; set by the /v1 auth hook */
    principal: KeyPrincipal;
  }
}

/** Unknown keys trigger revision checks at most this often (shared by every waiting request). */
const unknownKeyCheckGapMs = 50;

/** Resolves `Authorization: Bearer <key>` to a principal from memory, or throws 401 `invalid_api_key`. */
export async function authenticateApiKey(request: FastifyRequest, routing: RoutingCache, now: number): Promise<KeyPrincipal> {
  const header = request.headers.authorization;
  const secret = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  if (!secret) {
    throw new GatewayError('invalid_api_key', "You didn't provide an API key. Send it in the Authorization header as 'Bearer <key>'.");
  }
  const keyHash = hashApiKeySecret(secret);
  let principal = routing.current.findPrincipal(keyHash);
  if (!principal) {
    await routing.refreshStartedAfter(now, unknownKeyCheckGapMs);
    principal = routing.current.findPrincipal(keyHash);
  }
  if (!principal) throw new GatewayError('invalid_api_key', `Incorrect API key provided: ${maskSecret(secret)}.`);
  if (principal.expiresAt !== null && principal.expiresAt <= now) {
    throw new GatewayError('invalid_api_key', 'This API key has expired.');
  }
  return principal;
}

function maskSecret(secret: string): string {
  return secret.length <= 12 ? '****' : `${secret.slice(0, 8)}****${secret.slice(-4)}`;
}
