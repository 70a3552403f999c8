import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import { requireAdmin } from '../api/authenticate-api-caller.js';
import { recordAdminAction } from '../api/record-admin-action.js';
import type { ApiRouteContext } from './api-routes.js';

/** Admin tokens (made by `gateway admin token`), for admins: GET /api/admin/tokens and DELETE /api/admin/tokens/:id. */
export function registerApiAdminTokenRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { store } = api.signIn;

  app.get('/admin/tokens', async (request) => {
    requireAdmin(request.apiCaller);
    const now = services.clock();
    const tokens = await store.listAdminTokens();
    return { data: tokens.map((token) => ({ ...token, expired: token.expiresAt <= now })) };
  });

  app.delete<{ Params: { tokenId: string } }>('/admin/tokens/:tokenId', async (request) => {
    requireAdmin(request.apiCaller);
    if (!(await store.deleteAdminToken(request.params.tokenId)))
      throw new GatewayError('not_found', 'No such admin token.', { param: 'tokenId' });
    await recordAdminAction(api.gatewayStore, request.apiCaller, {
      action: 'admin-token.revoke',
      targetType: 'admin-token',
      targetId: request.params.tokenId,
      details: {},
    });
    return { id: request.params.tokenId, deleted: true };
  });
}
