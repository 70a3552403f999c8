import Stripe from 'stripe';
import type { StripeConfig } from '../payment-config.js';
import { ForgedPaymentMessageError, type PaymentProvider, type PaymentReport } from '../payment-provider.js';

/** Stripe's tolerance for the webhook signature's timestamp, seconds (stripe-node's DEFAULT_TOLERANCE). */
export const stripeSignatureToleranceSeconds = 300;
// Stripe lets a Checkout Session live between 30 minutes and 24 hours.
const minimumSessionLifetimeSeconds = 30 * 60 + 60;

/** Stripe Checkout as a payment method, plus verification of its webhook events. */
export interface StripePaymentProvider extends PaymentProvider {
  /**
   * Verifies `Stripe-Signature` over the raw body and maps the event (a refund or dispute is traced to its order
   * through the charge's metadata, else its Checkout Session); rejects with ForgedPaymentMessageError; undefined
   * for events not about top-ups.
   */
  readWebhook(rawBody: Buffer, signatureHeader: string | undefined, now: number): Promise<PaymentReport | undefined>;
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
          // The charge carries the order id too, so a refund or dispute of it finds its order.
          payment_intent_data: { metadata: { orderId: order.id } },
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

    async readWebhook(rawBody, signatureHeader, now) {
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
        case 'charge.refunded': {
          const charge = event.data.object;
          const orderId = await orderIdOfCharge(charge);
          if (orderId === undefined || !Number.isSafeInteger(charge.amount_refunded)) return undefined;
          return {
            orderId,
            outcome: 'refunded',
            providerReference: charge.id,
            eventId: event.id,
            refundedMinor: charge.amount_refunded,
            currency: charge.currency,
          };
        }
        case 'charge.dispute.created':
        case 'charge.dispute.closed': {
          const dispute = event.data.object;
          const disputeStatus = event.type === 'charge.dispute.created' ? 'open' : closedDisputeStatus(dispute.status);
          if (disputeStatus === undefined || !Number.isSafeInteger(dispute.amount)) return undefined;
          const charge = typeof dispute.charge === 'string' ? await retrieveCharge(dispute.charge) : dispute.charge;
          if (charge === undefined) return undefined;
          const orderId = await orderIdOfCharge(charge);
          if (orderId === undefined) return undefined;
          return {
            orderId,
            outcome: 'disputed',
            providerReference: charge.id,
            eventId: event.id,
            disputeId: dispute.id,
            amountMinor: dispute.amount,
            currency: dispute.currency,
            disputeStatus,
          };
        }
        default:
          return undefined;
      }
    },
  };

  /** The charge, or undefined when Stripe has none by that id (answering 500 would only make Stripe retry for days). */
  async function retrieveCharge(chargeId: string): Promise<Stripe.Charge | undefined> {
    try {
      return await stripe.charges.retrieve(chargeId);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')
        return undefined;
      throw error;
    }
  }

  /** The gateway order a charge paid: its metadata (set at checkout), else the Checkout Session of its PaymentIntent. */
  async function orderIdOfCharge(charge: Stripe.Charge): Promise<string | undefined> {
    const fromMetadata = charge.metadata['orderId'];
    if (fromMetadata !== undefined && fromMetadata !== '') return fromMetadata;
    const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
    if (intent === undefined) return undefined;
    const sessions = await stripe.checkout.sessions.list({ payment_intent: intent, limit: 1 });
    const session = sessions.data[0];
    return session?.client_reference_id ?? session?.metadata?.['orderId'] ?? undefined;
  }
}

/**
 * How a closed dispute ended for the money: `lost` keeps it taken back; `won`, an inquiry closed without a dispute
 * (`warning_closed`) and a `prevented` one give it back. Anything else is not a close.
 */
function closedDisputeStatus(status: Stripe.Dispute.Status): 'won' | 'lost' | undefined {
  switch (status) {
    case 'lost':
      return 'lost';
    case 'won':
    case 'warning_closed':
    case 'prevented':
      return 'won';
    default:
      return undefined;
  }
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
