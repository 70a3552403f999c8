import Stripe from 'stripe';
import type { StripeConfig } from '../payment-config.js';
import { ForgedPaymentMessageError, type PaymentProvider, type PaymentReport } from '../payment-provider.js';

/** Stripe's tolerance for the webhook signature's timestamp, seconds (stripe-node's DEFAULT_TOLERANCE). */
export const stripeSignatureToleranceSeconds = 300;
// Stripe lets a Checkout Session live between 30 minutes and 24 hours.
const minimumSessionLifetimeSeconds = 30 * 60 + 60;

/** Stripe Checkout as a payment method, plus verification of its webhook events. */
export interface StripePaymentProvider extends PaymentProvider {
  /** verifies `Stripe-Signature` over the raw body and maps the event; throws ForgedPaymentMessageError; undefined for events not about top-ups */
  readWebhook(rawBody: Buffer, signatureHeader: string | undefined, now: number): PaymentReport | undefined;
}

/** Builds the Stripe method; `apiUrl` sends every API call to another host (a loopback fake in tests). */
export function createStripePaymentProvider(config: StripeConfig): StripePaymentProvider {
  const apiUrl = config.apiUrl === undefined ? undefined : new URL(config.apiUrl);
  const stripe = new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(apiUrl === undefined
      ? {}
      : {
          host: apiUrl.hostname,
          port: Number(apiUrl.port || (apiUrl.protocol === 'http:' ? 80 : 443)),
          protocol: apiUrl.protocol === 'http:' ? 'http' : 'https',
        }),
  });

  return {
    method: 'stripe',
    currency: config.currency,
    microUnitsPerCurrencyUnit: config.microUnitsPerCurrencyUnit,

    async startCheckout(order, urls) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: order.id,
          metadata: { orderId: order.id },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: order.currency,
                unit_amount: order.amountPaidMinor,
                product_data: { name: 'Balance top-up' },
              },
            },
          ],
          success_url: urls.returnUrl,
          cancel_url: urls.returnUrl,
          expires_at: Math.floor(order.createdAt / 1000) + minimumSessionLifetimeSeconds,
        },
        { idempotencyKey: `topup-${order.id}` },
      );
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
      return { instruction: { kind: 'redirect', redirectUrl: session.url }, providerReference: session.id };
    },

    async queryOrder(order) {
      if (order.providerReference === null) return { orderId: order.id, outcome: 'pending', providerReference: null };
      const session = await stripe.checkout.sessions.retrieve(order.providerReference);
      return (
        reportFromSession(session, 'query', order.id) ?? {
          orderId: order.id,
          outcome: 'pending',
          providerReference: session.id,
        }
      );
    },

    readWebhook(rawBody, signatureHeader, now) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signatureHeader ?? '',
          config.webhookSecret,
          stripeSignatureToleranceSeconds,
          undefined,
          now,
        );
      } catch (error) {
        throw new ForgedPaymentMessageError(
          error instanceof Error ? error.message : 'Stripe signature verification failed',
        );
      }
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
        case 'checkout.session.async_payment_failed':
        case 'checkout.session.expired':
          return reportFromSession(event.data.object, event.type);
        default:
          return undefined;
      }
    },
  };
}

type SessionSource =
  | 'query'
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired';

function reportFromSession(
  session: Stripe.Checkout.Session,
  source: SessionSource,
  knownOrderId?: string,
): PaymentReport | undefined {
  const orderId = session.client_reference_id ?? session.metadata?.['orderId'] ?? knownOrderId;
  if (orderId === undefined) return undefined;
  const providerReference = session.id;
  const paid = (): PaymentReport => ({
    orderId,
    outcome: 'paid',
    providerReference,
    amountPaidMinor: session.amount_total ?? -1,
    currency: session.currency ?? '',
  });
  switch (source) {
    case 'checkout.session.completed':
      // Delayed methods (bank debits) complete `unpaid` and settle later with async_payment_succeeded.
      return session.payment_status === 'paid' ? paid() : { orderId, outcome: 'pending', providerReference };
    case 'checkout.session.async_payment_succeeded':
      return paid();
    case 'checkout.session.async_payment_failed':
      return { orderId, outcome: 'failed', providerReference, reason: 'the delayed payment failed' };
    case 'checkout.session.expired':
      return { orderId, outcome: 'expired', providerReference, reason: 'the Checkout Session expired' };
    case 'query':
      if (session.payment_status === 'paid') return paid();
      if (session.status === 'expired')
        return { orderId, outcome: 'expired', providerReference, reason: 'the Checkout Session expired' };
      return { orderId, outcome: 'pending', providerReference };
    default: {
      const unreachable: never = source;
      throw new Error(`unknown session source ${String(unreachable)}`);
    }
  }
}
