// The /api answers the Orders page reads: GET /api/admin/orders and POST /api/admin/orders/:id/recheck.

/** Where an order stands. */
export type OrderStatus = 'pending' | 'paid' | 'failed' | 'expired' | 'refunded';

/** Every order status, in the order the status filter offers them. */
export const orderStatuses: readonly OrderStatus[] = ['pending', 'paid', 'failed', 'expired', 'refunded'];

/** A payment method the gateway supports. */
export type PaymentMethod = 'stripe' | 'alipay';

/** Every payment method, in the order the method filter offers them. */
export const paymentMethods: readonly PaymentMethod[] = ['stripe', 'alipay'];

/** A top-up order as the /api shows it. */
export interface AdminOrder {
  id: string;
  userId: string;
  method: PaymentMethod;
  status: OrderStatus;
  /** minor units of `currency` (cents, fen) */
  amountPaidMinor: number;
  /** the same amount as a decimal string, e.g. "10.00" */
  amountPaid: string;
  currency: string;
  /** micro-units */
  credit: number;
  /** micro-units */
  bonus: number;
  providerReference: string | null;
  failureReason: string | null;
  /** Unix milliseconds */
  createdAt: number;
  paidAt: number | null;
  updatedAt: number;
}

/** One page of GET /api/admin/orders; `nextCursor` is null on the last page. */
export interface OrderPage {
  data: AdminOrder[];
  nextCursor: string | null;
}

/** What the payment provider reports about an order. */
export type ProviderVerdict = 'paid' | 'failed' | 'expired' | 'pending';

/** What the gateway did with the provider's report. */
export type RecheckOutcome = 'credited' | 'unchanged' | 'failed' | 'expired' | 'pending' | 'amount-mismatch' | 'unknown-order';

/** POST /api/admin/orders/:id/recheck */
export interface RecheckAnswer {
  order: AdminOrder;
  providerSays: ProviderVerdict;
  outcome: RecheckOutcome;
}
