import type {
  FulfilOrderResult,
  OrderReversal,
  PaymentMethod,
  ReverseOrderResult,
  TopupOrderFilter,
  TopupOrderRecord,
  TopupOrderStatus,
  WebhookDeliveryRecord,
} from './topup-order-records.js';

/** Durable top-up orders and their one-transaction fulfilment (SQLite and PostgreSQL). */
export interface TopupOrderStore {
  createOrder(order: TopupOrderRecord): Promise<void>;
  findOrder(orderId: string): Promise<TopupOrderRecord | undefined>;
  /** newest first */
  listOrders(filter: TopupOrderFilter): Promise<TopupOrderRecord[]>;
  /**
   * Pending orders created before the given Unix milliseconds, at most `perUser` of each user's oldest, taken round
   * by round (every user's oldest, then every user's second oldest, ...), oldest first within a round: one user's
   * many orders cannot crowd the others out of a batch.
   */
  listPendingOrdersBefore(time: number, limit: number, perUser: number): Promise<TopupOrderRecord[]>;
  /** how many of the user's orders are pending */
  countPendingOrders(userId: string): Promise<number>;
  /** records the provider's reference (Checkout Session id, trade_no) while the order is still pending */
  setProviderReference(orderId: string, providerReference: string, now: number): Promise<void>;
  /** compare-and-set from one of `from` to `to`; returns whether this call changed it */
  transitionOrder(
    orderId: string,
    from: readonly TopupOrderStatus[],
    to: 'failed' | 'expired',
    details: { failureReason?: string; now: number },
  ): Promise<boolean>;
  /**
   * In one transaction: pending (or expired) -> paid, a `top-up` ledger entry referencing the order, and the `bonus`
   * entry when this is the user's first paid order; the credit repays debt first; a refund or dispute reported
   * before the payment was seen is taken back in the same transaction. Anything else changes nothing.
   */
  fulfilOrder(orderId: string, details: { providerReference: string | null; now: number }): Promise<FulfilOrderResult>;
  /**
   * In one transaction: applies a refund or dispute to a paid order. The credit and bonus shares of everything
   * reversed (refunds, open and lost disputes) are taken back, what the balance covers from the balance and the rest
   * as debt, in one `topup-reversal` ledger entry (a dispute won gives its share back the same way, paying debt
   * first); the order's status and an audit entry follow. A repeat or an unknown order changes nothing; one of an
   * order not paid yet moves no money but is remembered on a pending or expired order for `fulfilOrder`.
   */
  reverseOrder(orderId: string, reversal: OrderReversal, details: { now: number }): Promise<ReverseOrderResult>;
  /** whether the user has an order that was ever paid (the first-top-up bonus rule) */
  hasPaidOrder(userId: string): Promise<boolean>;
  /** remembers one provider message received (the status page shows the last of each method) */
  recordWebhookDelivery(delivery: WebhookDeliveryRecord): Promise<void>;
  /** the newest delivery of a method, or undefined when none came */
  findLastWebhookDelivery(method: PaymentMethod): Promise<WebhookDeliveryRecord | undefined>;
}
