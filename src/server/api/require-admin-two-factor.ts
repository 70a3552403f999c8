import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import { hasTwoFactor } from '../../accounts/two-factor.js';
import type { ApiServices } from '../gateway-services.js';

/** What an admin without two-factor may still call while GATEWAY_REQUIRE_ADMIN_TWO_FACTOR is on: who am I, and setup. */
function isAllowedBeforeTwoFactor(method: string, path: string): boolean {
  if (path.startsWith('/api/me/two-factor')) return true;
  return method === 'GET' && path === '/api/me';
}

/**
 * With GATEWAY_REQUIRE_ADMIN_TWO_FACTOR on, refuses a signed-in admin without two-factor everything but its setup
 * (403 `forbidden`, param `two_factor`); admin tokens (the operator's CLI) are not asked.
 */
export async function requireAdminTwoFactor(request: FastifyRequest, api: ApiServices): Promise<void> {
  const { user } = request.apiCaller;
  if (!api.twoFactor.requireForAdmins || user === undefined || user.role !== 'admin') return;
  if (isAllowedBeforeTwoFactor(request.method, request.url.split('?')[0] ?? '')) return;
  if (hasTwoFactor(await api.twoFactor.store.find(user.id))) return;
  throw new GatewayError('forbidden', 'Set up two-factor sign-in first: administrators need it on this gateway.', {
    param: 'two_factor',
  });
}
