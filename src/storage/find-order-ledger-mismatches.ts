import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';
import { paidOrderStatuses, type TopupOrderStatus } from './topup-order-records.js';
import { withoutStatementTimeout } from './without-statement-timeout.js';

/** A top-up order whose ledger entries do not add up to what the order says was credited and taken back. */
export interface OrderLedgerMismatch {
  orderId: string;
  userId: string;
  status: TopupOrderStatus;
  /** micro-units the order should have credited (its credit and, for a paid order, its bonus); 0 for an unpaid order */
  expectedCredit: number;
  /** micro-units its `top-up` and `bonus` ledger entries credited */
  ledgerCredit: number;
  /** micro-units the order says its refunds and disputes took back (reversed credit plus reversed bonus) */
  expectedReversed: number;
  /** micro-units its `topup-reversal` entries took back, from the balance and as debt (given back counts negative) */
  ledgerReversed: number;
  /** `top-up` entries naming the order: exactly one for a paid order, none otherwise */
  creditEntries: number;
}

/**
 * Every top-up order against the ledger entries that name it (`gateway billing verify`): a paid order has exactly one
 * `top-up` entry of its credit and `bonus` entries of its bonus, and its `topup-reversal` entries take back exactly its
 * reversed credit and bonus (debt included, disputes won given back); an unpaid order has none. One pass over each
 * table, grouped in memory, so it needs no index on the ledger's reference.
 */
export async function findOrderLedgerMismatches(database: Kysely<DatabaseSchema>): Promise<OrderLedgerMismatch[]> {
  return withoutStatementTimeout(database, async (connection) => {
    const orders = await connection
      .selectFrom('topup_orders')
      .select([
        'id',
        'user_id',
        'status',
        'credit_micro_units',
        'bonus_micro_units',
        'reversed_credit_micro_units',
        'reversed_bonus_micro_units',
      ])
      .orderBy('id')
      .execute();
    const entries = await connection
      .selectFrom('ledger_entries')
      .select(['reference', 'kind', 'amount', 'debt_change'])
      .where('kind', 'in', ['top-up', 'bonus', 'topup-reversal'])
      .execute();
    const byOrder = new Map<string, { credit: number; reversed: number; creditEntries: number }>();
    for (const entry of entries) {
      if (entry.reference === null) continue;
      const sums = byOrder.get(entry.reference) ?? { credit: 0, reversed: 0, creditEntries: 0 };
      const amount = Number(entry.amount);
      if (entry.kind === 'topup-reversal') sums.reversed += Number(entry.debt_change) - amount;
      else sums.credit += amount;
      if (entry.kind === 'top-up') sums.creditEntries += 1;
      byOrder.set(entry.reference, sums);
    }
    const mismatches: OrderLedgerMismatch[] = [];
    for (const order of orders) {
      const status = order.status as TopupOrderStatus;
      const paid = paidOrderStatuses.includes(status);
      const sums = byOrder.get(order.id) ?? { credit: 0, reversed: 0, creditEntries: 0 };
      const mismatch: OrderLedgerMismatch = {
        orderId: order.id,
        userId: order.user_id,
        status,
        expectedCredit: paid ? Number(order.credit_micro_units) + Number(order.bonus_micro_units) : 0,
        ledgerCredit: sums.credit,
        expectedReversed: Number(order.reversed_credit_micro_units) + Number(order.reversed_bonus_micro_units),
        ledgerReversed: sums.reversed,
        creditEntries: sums.creditEntries,
      };
      if (
        mismatch.expectedCredit !== mismatch.ledgerCredit ||
        mismatch.expectedReversed !== mismatch.ledgerReversed ||
        mismatch.creditEntries !== (paid ? 1 : 0)
      )
        mismatches.push(mismatch);
    }
    return mismatches;
  });
}
