import type { Logger } from 'pino';
import type { BillingRuntime } from '../../billing/billing-runtime.js';
import type { TopupOrderStore } from '../../storage/topup-order-store.js';
import type { PaymentConfig } from './payment-config.js';
import { TopupService } from './topup-service.js';

/**
 * Builds the top-up service with a provider for every configured method. Each provider's SDK is loaded only when its
 * method is configured: the Stripe and Alipay SDKs together hold some 50 MB of RSS that a gateway without them never needs.
 */
export async function createTopupService(options: {
  config: PaymentConfig;
  store: TopupOrderStore;
  billing: BillingRuntime;
  logger: Logger;
  clock: () => number;
}): Promise<TopupService> {
  const { stripe, alipay } = options.config;
  return new TopupService({
    ...options,
    stripe: stripe
      ? (await import('./stripe/stripe-payment-provider.js')).createStripePaymentProvider(stripe)
      : undefined,
    alipay: alipay
      ? (await import('./alipay/alipay-payment-provider.js')).createAlipayPaymentProvider(alipay)
      : undefined,
  });
}
