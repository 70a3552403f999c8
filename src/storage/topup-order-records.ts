import type { LedgerEntryRecord } from './billing-records.js';

/** A payment method the gateway can take top-ups through. */
export type PaymentMethod = 'stripe' | 'alipay';

/**
 * Where a top-up order stands: `pending -> paid | failed | expired`; a paid order the provider reverses becomes
 * `partially-refunded` or `refunded` (refunds and lost disputes), `disputed` while a dispute is open.
 */
export type TopupOrderStatus =
  'pending' | 'paid' | 'failed' | 'expired' | 'partially-refunded' | 'refunded' | 'disputed';

/** The statuses of an order that was paid (whatever was reversed since): each counts as paid for the bonus rule. */
export const paidOrderStatuses: readonly TopupOrderStatus[] = ['paid', 'partially-refunded', 'refunded', 'disputed'];

/** Where a provider dispute (chargeback) stands: `open` until the provider closes it `won` or `lost`. */
export type DisputeStatus = 'open' | 'won' | 'lost';

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
  /** minor units the provider refunded so far (cumulative, as the provider reports it) */
  refundedMinor: number;
  /** micro-units of the credit taken back by refunds and disputes so far */
  reversedCreditMicroUnits: number;
  /** micro-units of the bonus taken back by refunds and disputes so far */
  reversedBonusMicroUnits: number;
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

/**
 * A verified provider message that gives money back to the payer: a refund (the order's cumulative refunded amount,
 * as Stripe's `amount_refunded` and Alipay's `refund_fee` report it) or a dispute opened or closed.
 */
export type OrderReversal =
  | { kind: 'refund'; method: PaymentMethod; eventId: string; refundedMinor: number; currency: string }
  | {
      kind: 'dispute';
      method: PaymentMethod;
      eventId: string;
      disputeId: string;
      amountMinor: number;
      currency: string;
      status: DisputeStatus;
    };

/** What applying a reversal did: money taken back (`reversed`), given back (`restored`), or nothing. */
export type ReverseOrderResult =
  | {
      outcome: 'reversed' | 'restored';
      order: TopupOrderRecord;
      /** micro-units of the credit (then the bonus) taken back by this change; negative when given back */
      creditChange: number;
      bonusChange: number;
      /** the `topup-reversal` ledger entry */
      entry: LedgerEntryRecord;
      balance: number;
      debt: number;
      sequence: number;
    }
  | { outcome: 'unchanged' | 'not-paid' | 'currency-mismatch'; order: TopupOrderRecord }
  | { outcome: 'unknown-order' };

/** What became of a payment provider message: a ReportOutcome, `ignored` (nothing for an order), or `rejected` (did not verify). */
export type WebhookDeliveryOutcome =
  | 'credited'
  | 'unchanged'
  | 'failed'
  | 'expired'
  | 'pending'
  | 'amount-mismatch'
  | 'unknown-order'
  | 'reversed'
  | 'restored'
  | 'not-paid'
  | 'currency-mismatch'
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
