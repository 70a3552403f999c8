import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { beginOauthAttempt } from '../../accounts/begin-oauth-attempt.js';
import { SignInError } from '../../accounts/sign-in-error.js';
import { GatewayError } from '../../core/gateway-error.js';
import { requireUser } from '../api/authenticate-api-caller.js';
import { encodeOauthTransactionCookie, publicOriginOf } from '../api/console-cookies.js';
import { parseApiInput } from '../api/parse-api-input.js';
import type { ApiRouteContext } from './api-routes.js';

const linkSchema = z.object({
  provider: z.enum(['github', 'oidc']),
  returnTo: z.string().max(2_048).optional(),
});

/**
 * The caller's sign-in identities: GET /api/me/identities, POST /api/me/identities/link (starts adding a provider
 * account to the signed-in user: answers the provider's URL to go to, the attempt bound to this session; a POST, so the
 * cross-site check of cookie-authenticated writes applies) and DELETE /api/me/identities/:id (never the last way in:
 * a user without a password keeps at least one identity).
 */
export function registerApiIdentityRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
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

  app.post('/me/identities/link', async (request, reply) => {
    requireUser(request.apiCaller);
    const sessionId = request.apiCaller.sessionId;
    if (sessionId === undefined)
      throw new GatewayError('invalid_request_error', 'Linking needs a console session: sign in to the console first.');
    const { provider, returnTo } = parseApiInput(linkSchema, request.body);
    const publicOrigin = publicOriginOf(request, api);
    try {
      const attempt = await beginOauthAttempt(api.signIn, {
        provider,
        publicOrigin,
        returnTo: returnTo ?? '/settings',
        linkSessionId: sessionId,
        signUp: services.config.signUp,
        now: services.clock(),
      });
      void reply.header('set-cookie', encodeOauthTransactionCookie(attempt.transactionCookie, publicOrigin));
      request.log.info({ userId: request.apiCaller.user?.id, provider }, 'identity link started');
      return { provider, authorizationUrl: attempt.location };
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      if (error.code === 'provider_not_configured')
        throw new GatewayError('invalid_request_error', `${provider} sign-in is not configured here.`, {
          param: 'provider',
        });
      request.log.warn({ code: error.code, reason: error.message }, 'identity link could not start');
      throw new GatewayError('upstream_error', 'The sign-in provider could not be reached; try again later.');
    }
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
