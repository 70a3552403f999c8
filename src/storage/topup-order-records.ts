/** A payment method the gateway can take top-ups through. */
export type PaymentMethod = 'stripe' | 'alipay';

/** Where a top-up order stands: `pending -> paid | failed | expired` (`refunded` is reserved for later). */
export type TopupOrderStatus = 'pending' | 'paid' | 'failed' | 'expired' | 'refunded';

/** One payment attempt. */
export interface TopupOrderRecord {
  /** the gateway's order id: Stripe's client_reference_id, Alipay's out_trade_no */
  id: string;
  userId: string;
  method: PaymentMethod;
  status: TopupOrderStatus;
  /** what the payer pays, in the currency's minor unit (cents, fen) */
  amountPaidMinor: number;
  /** lower-case ISO 4217 code */
  currency: string;
  /** micro-units credited when paid */
  creditMicroUnits: number;
  /** micro-units of first-top-up bonus: offered at creation; once paid, what was granted (0 when not the first) */
  bonusMicroUnits: number;
  /** Checkout Session id or Alipay trade_no, once known */
  providerReference: string | null;
  /** why the order failed (provider's word or an amount mismatch), else null */
  failureReason: string | null;
  /** Unix milliseconds */
  createdAt: number;
  paidAt: number | null;
  updatedAt: number;
}

/** Filters of the admin order list. */
export interface TopupOrderFilter {
  userId?: string;
  status?: TopupOrderStatus;
  method?: PaymentMethod;
  limit: number;
  /** cursor: orders created before this one */
  before?: { createdAt: number; id: string };
}

/** What fulfilling an order did. */
export type FulfilOrderResult =
  | { outcome: 'credited'; order: TopupOrderRecord; balance: number; debt: number; sequence: number }
  | { outcome: 'unchanged'; order: TopupOrderRecord | undefined };

/** What became of a payment provider message: a ReportOutcome, `ignored` (nothing for an order), or `rejected` (did not verify). */
export type WebhookDeliveryOutcome =
  | 'credited'
  | 'unchanged'
  | 'failed'
  | 'expired'
  | 'pending'
  | 'amount-mismatch'
  | 'unknown-order'
  | 'ignored'
  | 'rejected';

/** One Stripe webhook or Alipay notification received, as the admin status page shows it (never its payload). */
export interface WebhookDeliveryRecord {
  method: PaymentMethod;
  /** Unix milliseconds */
  receivedAt: number;
  /** whether its signature verified */
  verified: boolean;
  outcome: WebhookDeliveryOutcome;
  /** the gateway order it named, if any (for a forged message, what it claimed) */
  orderId: string | null;
}
