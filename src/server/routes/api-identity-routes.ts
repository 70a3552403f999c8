import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import { requireUser } from '../api/authenticate-api-caller.js';
import type { ApiRouteContext } from './api-routes.js';

/**
 * The caller's sign-in identities: GET /api/me/identities and DELETE /api/me/identities/:id (never the last way in:
 * a user without a password keeps at least one identity). Linking starts at GET /api/auth/{provider}/start while
 * signed in.
 */
export function registerApiIdentityRoutes(app: FastifyInstance, { api }: ApiRouteContext): void {
  const { store } = api.signIn;

  app.get('/me/identities', async (request) => {
    const user = requireUser(request.apiCaller);
    const identities = await store.listIdentities(user.id);
    return {
      hasPassword: user.passwordHash !== null,
      data: identities.map((identity) => ({
        id: identity.id,
        provider: identity.provider,
        displayName: identity.displayName,
        email: identity.email,
        createdAt: identity.createdAt,
        lastUsedAt: identity.lastUsedAt,
      })),
    };
  });

  app.delete<{ Params: { identityId: string } }>('/me/identities/:identityId', async (request) => {
    const user = requireUser(request.apiCaller);
    const result = await store.deleteIdentity(user.id, request.params.identityId);
    if (result.lastWayIn) {
      throw new GatewayError(
        'invalid_request_error',
        'This is the only way into the account: link another provider first.',
        { param: 'identityId' },
      );
    }
    if (!result.removed) throw new GatewayError('not_found', 'No such identity.', { param: 'identityId' });
    return { id: request.params.identityId, deleted: true };
  });
}
