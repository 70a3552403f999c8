// The /api answers the Orders page reads: GET /api/admin/orders and POST /api/admin/orders/:id/recheck.

import type { PaymentMethod, TopUpOrder, TopUpOrderStatus } from '../../top-up/top-up-types';

/** Every order status, in the order the status filter offers them. */
export const orderStatuses: readonly TopUpOrderStatus[] = [
  'pending',
  'paid',
  'failed',
  'expired',
  'partially-refunded',
  'refunded',
  'disputed',
];

/** Every payment method, in the order the method filter offers them. */
export const paymentMethods: readonly PaymentMethod[] = ['stripe', 'alipay'];

/** What the payment provider reports about an order. */
export type ProviderVerdict = 'paid' | 'failed' | 'expired' | 'pending';

/** What the gateway did with the provider's report. */
export type RecheckOutcome = 'credited' | 'unchanged' | 'failed' | 'expired' | 'pending' | 'amount-mismatch' | 'unknown-order';

/** POST /api/admin/orders/:id/recheck */
export interface RecheckAnswer {
  order: TopUpOrder;
  providerSays: ProviderVerdict;
  outcome: RecheckOutcome;
}

/** An order in GET /api/admin/orders: with who placed it (null when the user is gone). */
export interface AdminTopUpOrder extends TopUpOrder {
  user: { email: string; displayName: string } | null;
}
