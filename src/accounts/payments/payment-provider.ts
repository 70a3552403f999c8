import type { PaymentMethod, TopupOrderRecord } from '../../storage/topup-order-records.js';

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
  | { orderId: string; outcome: 'pending'; providerReference: string | null };

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
