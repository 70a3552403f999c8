import type { Logger } from 'pino';
import type { BillingRuntime } from '../../billing/billing-runtime.js';
import type { TopupOrderStore } from '../../storage/topup-order-store.js';
import { createAlipayPaymentProvider } from './alipay/alipay-payment-provider.js';
import type { PaymentConfig } from './payment-config.js';
import { createStripePaymentProvider } from './stripe/stripe-payment-provider.js';
import { TopupService } from './topup-service.js';

/** Builds the top-up service with a provider for every configured method. */
export function createTopupService(options: { config: PaymentConfig; store: TopupOrderStore; billing: BillingRuntime; logger: Logger; clock: () => number }): TopupService {
  return new TopupService({
    ...options,
    stripe: options.config.stripe ? createStripePaymentProvider(options.config.stripe) : undefined,
    alipay: options.config.alipay ? createAlipayPaymentProvider(options.config.alipay) : undefined,
  });
}
