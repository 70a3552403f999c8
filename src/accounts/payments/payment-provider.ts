import type { DisputeStatus, PaymentMethod, TopupOrderRecord } from '../../storage/topup-order-records.js';

/** Where the payer goes next: a hosted payment page, or a QR code to scan with the wallet app. */
export type PaymentInstruction = { kind: 'redirect'; redirectUrl: string } | { kind: 'qr'; qrCode: string };

/** A checkout started with the provider. */
export interface StartedCheckout {
  instruction: PaymentInstruction;
  /** the provider's id for it (Checkout Session id), when it gives one up front */
  providerReference: string | null;
}

/**
 * What a verified provider message or a provider query says about one order. `paid` carries the amount and
 * currency the provider took, checked against the order before any credit.
 */
export type PaymentReport =
  | { orderId: string; outcome: 'paid'; providerReference: string | null; amountPaidMinor: number; currency: string }
  | { orderId: string; outcome: 'failed' | 'expired'; providerReference: string | null; reason: string }
  | { orderId: string; outcome: 'pending'; providerReference: string | null }
  | {
      orderId: string;
      outcome: 'refunded';
      providerReference: string | null;
      /** the provider's event (Stripe event id, Alipay `out_biz_no` or `notify_id`) */
      eventId: string;
      /** minor units refunded so far in all, as the provider reports it (Stripe `amount_refunded`, Alipay `refund_fee`) */
      refundedMinor: number;
      currency: string;
    }
  | {
      orderId: string;
      outcome: 'disputed';
      providerReference: string | null;
      eventId: string;
      disputeId: string;
      /** minor units disputed */
      amountMinor: number;
      currency: string;
      /** `open` when the dispute is created, `won` or `lost` when the provider closes it */
      disputeStatus: DisputeStatus;
    };

/** One payment method: starts checkouts and asks the provider about an order. Never writes to an HTTP response. */
export interface PaymentProvider {
  readonly method: PaymentMethod;
  /** lower-case ISO 4217 code this method charges */
  readonly currency: string;
  /** micro-units credited per whole currency unit paid */
  readonly microUnitsPerCurrencyUnit: number;
  startCheckout(order: TopupOrderRecord, urls: { notifyUrl: string; returnUrl: string }): Promise<StartedCheckout>;
  /** asks the provider where the order stands (reconciliation and admin re-check) */
  queryOrder(order: TopupOrderRecord): Promise<PaymentReport>;
}

/** A provider message that failed verification (signature, timestamp, app id): refused with 400 and logged. */
export class ForgedPaymentMessageError extends Error {
  override readonly name = 'ForgedPaymentMessageError';
}
