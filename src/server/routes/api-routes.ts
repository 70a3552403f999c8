import type { FastifyInstance } from 'fastify';
import { authenticateApiCaller, type ApiCaller } from '../api/authenticate-api-caller.js';
import type { ApiServices, GatewayServices } from '../gateway-services.js';
import { registerApiAccountRoutes } from './api-account-routes.js';
import { registerApiAuditLogRoutes } from './api-audit-log-routes.js';
import { registerApiAuthRoutes } from './api-auth-routes.js';
import { registerApiCatalogRoutes } from './api-catalog-routes.js';
import { registerApiChannelRoutes } from './api-channel-routes.js';
import { registerApiGroupRoutes } from './api-group-routes.js';
import { registerApiChannelPresetRoutes } from './api-channel-preset-routes.js';
import { registerApiKeyRoutes } from './api-key-routes.js';
import { registerApiPriceRoutes } from './api-price-routes.js';
import { registerApiUsageRoutes } from './api-usage-routes.js';
import { registerApiUserGroupRoutes } from './api-user-group-routes.js';
import { registerApiMyGroupRoutes } from './api-my-group-routes.js';
import { registerApiRedemptionRoutes } from './api-redemption-routes.js';
import { registerApiSetupRoutes } from './api-setup-routes.js';
import { registerApiUserStatusRoutes } from './api-user-status-routes.js';
import { registerApiTopupRoutes } from './api-topup-routes.js';
import { registerApiPaymentWebhookRoutes } from './api-payment-webhook-routes.js';
import { registerApiSignInRoutes } from './api-sign-in-routes.js';
import { registerApiSessionRoutes } from './api-session-routes.js';
import { registerApiIdentityRoutes } from './api-identity-routes.js';
import { registerApiAdminTokenRoutes } from './api-admin-token-routes.js';
import { registerApiSessionStateRoutes } from './api-session-state-routes.js';
import { registerApiAdminStatusRoutes } from './api-admin-status-routes.js';
import { registerApiRequestBodyRoutes } from './api-request-body-routes.js';
import { registerApiSecondFactorRoutes, registerApiTwoFactorRoutes } from './api-two-factor-routes.js';
import { requireAdminTwoFactor } from '../api/require-admin-two-factor.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the /api caller; set by the /api auth hook */
    apiCaller: ApiCaller;
  }
}

/** Everything an /api route needs. */
export interface ApiRouteContext {
  services: GatewayServices;
  api: ApiServices;
}

/** Registers the console's JSON API under /api (session or admin-token authenticated), when the app has its services. */
export async function registerApiRoutes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  const api = services.api;
  if (!api) return;
  const context: ApiRouteContext = { services, api };
  app.decorateRequest('apiCaller', null as unknown as ApiCaller);
  await app.register(
    async (scope) => {
      registerApiAuthRoutes(scope, context);
      registerApiSetupRoutes(scope, context);
      await scope.register(async (webhooks) => registerApiPaymentWebhookRoutes(webhooks, context));
      registerApiSignInRoutes(scope, context);
      registerApiSessionStateRoutes(scope, context);
      registerApiSecondFactorRoutes(scope, context);
      await scope.register(async (authenticated) => {
        authenticated.addHook('onRequest', async (request) => {
          request.apiCaller = await authenticateApiCaller(request, api, services.clock());
          await requireAdminTwoFactor(request, api);
        });
        registerApiAccountRoutes(authenticated, context);
        registerApiPriceRoutes(authenticated, context);
        registerApiCatalogRoutes(authenticated, context);
        registerApiKeyRoutes(authenticated, context);
        registerApiUsageRoutes(authenticated, context);
        registerApiUserGroupRoutes(authenticated, context);
        registerApiAuditLogRoutes(authenticated, context);
        registerApiRedemptionRoutes(authenticated, context);
        registerApiUserStatusRoutes(authenticated, context);
        registerApiMyGroupRoutes(authenticated, context);
        registerApiChannelRoutes(authenticated, context);
        registerApiGroupRoutes(authenticated, context);
        registerApiChannelPresetRoutes(authenticated, context);
        registerApiTopupRoutes(authenticated, context);
        registerApiSessionRoutes(authenticated, context);
        registerApiIdentityRoutes(authenticated, context);
        registerApiAdminTokenRoutes(authenticated, context);
        registerApiAdminStatusRoutes(authenticated, context);
        registerApiRequestBodyRoutes(authenticated, context);
        registerApiTwoFactorRoutes(authenticated, context);
      });
    },
    { prefix: '/api' },
  );
}
