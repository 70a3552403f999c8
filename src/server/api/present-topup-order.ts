import { formatMicroUnits } from '../../billing/money.js';
import { formatMinorUnits } from '../../accounts/payments/quote-topup.js';
import type { TopupOrderRecord } from '../../storage/topup-order-records.js';

/** A top-up order as the /api shows it: exact integers plus readable decimal strings. */
export function presentTopupOrder(order: TopupOrderRecord) {
  return {
    id: order.id,
    userId: order.userId,
    method: order.method,
    status: order.status,
    /** minor units of `currency` (cents, fen) */
    amountPaidMinor: order.amountPaidMinor,
    amountPaid: formatMinorUnits(order.amountPaidMinor, order.currency),
    currency: order.currency,
    /** micro-units */
    credit: order.creditMicroUnits,
    creditText: formatMicroUnits(order.creditMicroUnits),
    /** micro-units */
    bonus: order.bonusMicroUnits,
    bonusText: formatMicroUnits(order.bonusMicroUnits),
    /** minor units the provider refunded so far (cumulative) */
    refundedMinor: order.refundedMinor,
    /** micro-units of the credit and of the bonus taken back by refunds and disputes so far */
    reversedCredit: order.reversedCreditMicroUnits,
    reversedBonus: order.reversedBonusMicroUnits,
    providerReference: order.providerReference,
    failureReason: order.failureReason,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    updatedAt: order.updatedAt,
  };
}
