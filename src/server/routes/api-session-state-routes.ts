import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import { authenticateApiCaller } from '../api/authenticate-api-caller.js';
import type { ApiRouteContext } from './api-routes.js';

/**
 * `GET /api/auth/session` (public): whether the call carries a live session or admin token, always 200. The console
 * asks this before loading a page, so a signed-out visitor is sent to sign-in without a 401 in the browser's console.
 */
export function registerApiSessionStateRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  app.get('/auth/session', async (request) => {
    try {
      const caller = await authenticateApiCaller(request, api, services.clock());
      return { signedIn: true, isAdmin: caller.isAdmin };
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'unauthorized') return { signedIn: false, isAdmin: false };
      throw error;
    }
  });
}
