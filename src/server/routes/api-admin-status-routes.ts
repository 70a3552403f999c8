import type { FastifyInstance } from 'fastify';
import type { TopupService } from '../../accounts/payments/topup-service.js';
import type { PaymentMethod, WebhookDeliveryRecord } from '../../storage/topup-order-records.js';
import { requireAdmin } from '../api/authenticate-api-caller.js';
import type { ApiRouteContext } from './api-routes.js';

/**
 * GET /api/admin/status (admins): which sign-in and payment providers this gateway has configured, its public URL,
 * and the last webhook or notification each payment provider delivered (when, verified or not, its outcome, the
 * order). Never a secret.
 */
export function registerApiAdminStatusRoutes(app: FastifyInstance, { api }: ApiRouteContext): void {
  app.get('/admin/status', async (request) => {
    requireAdmin(request.apiCaller);
    const { config } = api.signIn;
    const topup = api.topup;
    const stripe = topup?.options.config.stripe;
    const alipay = topup?.options.config.alipay;
    return {
      publicUrl: config.publicUrl ?? topup?.options.config.publicUrl ?? null,
      signIn: {
        password: true,
        github: config.github
          ? { configured: true, host: hostOf(config.github.baseUrl) }
          : { configured: false, host: null },
        oidc: config.oidc
          ? { configured: true, name: config.oidc.displayName, issuerHost: hostOf(config.oidc.issuer) }
          : { configured: false, name: null, issuerHost: null },
      },
      payments: [
        {
          method: 'stripe',
          configured: stripe !== undefined,
          mode:
            stripe === undefined
              ? null
              : stripe.secretKey.startsWith('sk_live_') || stripe.secretKey.startsWith('rk_live_')
                ? 'live'
                : 'test',
          currency: stripe?.currency ?? null,
          lastDelivery: await lastDelivery(topup, 'stripe'),
        },
        {
          method: 'alipay',
          configured: alipay !== undefined,
          mode: alipay === undefined ? null : alipay.mode,
          sandbox: alipay === undefined ? null : /sandbox/i.test(alipay.gatewayUrl),
          currency: alipay === undefined ? null : 'cny',
          lastDelivery: await lastDelivery(topup, 'alipay'),
        },
      ],
    };
  });
}

async function lastDelivery(
  topup: TopupService | undefined,
  method: PaymentMethod,
): Promise<WebhookDeliveryRecord | null> {
  return (await topup?.options.store.findLastWebhookDelivery(method)) ?? null;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
