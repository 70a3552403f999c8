import type { Selectable, Transaction } from 'kysely';
import { createRecordId } from '../core/create-record-id.js';
import type { AuditAction } from './audit-actions.js';
import type { LedgerEntryRecord } from './billing-records.js';
import type { DatabaseSchema, TopupOrdersTable } from './database-schema.js';
import { repayUserDebt, type UserMoneyRow } from './repay-user-debt.js';
import {
  paidOrderStatuses,
  type DisputeStatus,
  type OrderReversal,
  type ReverseOrderResult,
  type TopupOrderRecord,
  type TopupOrderStatus,
} from './topup-order-records.js';

/** What of a paid order stands reversed: the minor units given back and the status that shows it. */
export interface ReversedShare {
  /** minor units reversed: refunds plus open and lost disputes, at most what was paid */
  reversedMinor: number;
  /** micro-units of the credit that share takes back (rounded down; all of it when all was reversed) */
  credit: number;
  /** micro-units of the bonus that share takes back (rounded down; all of it when all was reversed) */
  bonus: number;
  status: TopupOrderStatus;
}

/**
 * The share of a paid order's credit and bonus that its refunds and disputes take back, exactly in integers:
 * `credit × reversed / paid`, rounded down, so a full reversal takes back exactly the credit and the bonus, and a
 * partial one never more than its share. An open dispute counts as reversed until it is won.
 */
export function computeReversedShare(
  order: Pick<TopupOrderRecord, 'amountPaidMinor' | 'creditMicroUnits' | 'bonusMicroUnits'>,
  refundedMinor: number,
  disputes: ReadonlyArray<{ amountMinor: number; status: DisputeStatus }>,
): ReversedShare {
  const paid = order.amountPaidMinor;
  let disputed = 0;
  let open = false;
  for (const dispute of disputes) {
    switch (dispute.status) {
      case 'open':
        open = true;
        disputed += dispute.amountMinor;
        break;
      case 'lost':
        disputed += dispute.amountMinor;
        break;
      case 'won':
        break;
      default: {
        const unreachable: never = dispute.status;
        throw new Error(`unknown dispute status ${String(unreachable)}`);
      }
    }
  }
  const reversedMinor = Math.max(0, Math.min(paid, refundedMinor + disputed));
  const share = (amount: number): number =>
    paid <= 0 ? 0 : Number((BigInt(amount) * BigInt(reversedMinor)) / BigInt(paid));
  const status: TopupOrderStatus = open
    ? 'disputed'
    : reversedMinor >= paid
      ? 'refunded'
      : reversedMinor > 0
        ? 'partially-refunded'
        : 'paid';
  return { reversedMinor, credit: share(order.creditMicroUnits), bonus: share(order.bonusMicroUnits), status };
}

/**
 * Applies a refund or dispute to a paid order inside the caller's transaction (see `TopupOrderStore.reverseOrder`):
 * locks the order row, records the refunded amount or the dispute, takes back (or gives back) the difference between
 * the share now reversed and what was taken before, and writes the ledger entry and the audit entry.
 */
export async function reverseTopupOrder(
  transaction: Transaction<DatabaseSchema>,
  orderId: string,
  reversal: OrderReversal,
  now: number,
  decodeOrder: (row: Selectable<TopupOrdersTable>) => TopupOrderRecord,
): Promise<ReverseOrderResult> {
  // A write first: on PostgreSQL it locks the order's row, so two deliveries of one order apply one after the other.
  const lockedRow = await transaction
    .updateTable('topup_orders')
    .set((expression) => ({ updated_at: expression.ref('updated_at') }))
    .where('id', '=', orderId)
    .returningAll()
    .executeTakeFirst();
  if (lockedRow === undefined || lockedRow.method !== reversal.method) return { outcome: 'unknown-order' };
  const before = decodeOrder(lockedRow);
  if (reversal.currency.toLowerCase() !== before.currency) return { outcome: 'currency-mismatch', order: before };
  if (!paidOrderStatuses.includes(before.status)) {
    await rememberForLaterPayment(transaction, before, reversal, now);
    return { outcome: 'not-paid', order: before };
  }

  let refundedMinor = before.refundedMinor;
  let disputeChanged = false;
  switch (reversal.kind) {
    case 'refund':
      // Providers report the cumulative refunded amount: a repeat or a late, smaller report changes nothing.
      refundedMinor = Math.max(before.refundedMinor, Math.min(reversal.refundedMinor, before.amountPaidMinor));
      break;
    case 'dispute':
      disputeChanged = await recordDispute(transaction, before.id, reversal, now);
      break;
    default: {
      const unreachable: never = reversal;
      throw new Error(`unknown reversal ${JSON.stringify(unreachable)}`);
    }
  }
  const disputes = await transaction
    .selectFrom('topup_disputes')
    .select(['amount_minor', 'status'])
    .where('order_id', '=', before.id)
    .execute();
  const share = computeReversedShare(
    before,
    refundedMinor,
    disputes.map((row) => ({ amountMinor: Number(row.amount_minor), status: row.status as DisputeStatus })),
  );
  const creditChange = share.credit - before.reversedCreditMicroUnits;
  const bonusChange = share.bonus - before.reversedBonusMicroUnits;
  const after: TopupOrderRecord = {
    ...before,
    status: share.status,
    refundedMinor,
    reversedCreditMicroUnits: share.credit,
    reversedBonusMicroUnits: share.bonus,
    updatedAt: now,
  };
  const orderChanged = after.status !== before.status || refundedMinor !== before.refundedMinor;
  if (!orderChanged && !disputeChanged && creditChange === 0 && bonusChange === 0)
    return { outcome: 'unchanged', order: before };

  await transaction
    .updateTable('topup_orders')
    .set({
      status: after.status,
      refunded_minor: after.refundedMinor,
      reversed_credit_micro_units: after.reversedCreditMicroUnits,
      reversed_bonus_micro_units: after.reversedBonusMicroUnits,
      updated_at: now,
    })
    .where('id', '=', before.id)
    .execute();

  const total = creditChange + bonusChange;
  let moved: { entry: LedgerEntryRecord; money: UserMoneyRow } | undefined;
  if (total > 0)
    moved = await takeBack(transaction, before, describeReversal(reversal), creditChange, bonusChange, now);
  if (total < 0) moved = await giveBack(transaction, before, describeReversal(reversal), -total, now);

  await transaction
    .insertInto('audit_log')
    .values({
      id: createRecordId('aud', now),
      created_at: now,
      actor_user_id: null,
      actor_label: `${reversal.method} webhook`,
      actor_kind: 'webhook',
      actor_id: null,
      action: (reversal.kind === 'refund' ? 'order.refund' : 'order.dispute') satisfies AuditAction,
      target_type: 'order',
      target_id: before.id,
      details: JSON.stringify({
        userId: before.userId,
        event: reversal.eventId,
        ...(reversal.kind === 'dispute'
          ? { dispute: reversal.disputeId, disputeStatus: reversal.status, disputedMinor: reversal.amountMinor }
          : { refundedMinor }),
        statusBefore: before.status,
        statusAfter: after.status,
        reversedMinor: share.reversedMinor,
        creditTakenBack: creditChange,
        bonusTakenBack: bonusChange,
        balanceChange: moved === undefined ? 0 : moved.entry.amount,
        debtChange: moved === undefined ? 0 : moved.entry.debtChange,
      }),
    })
    .execute();

  if (moved === undefined) return { outcome: 'unchanged', order: after };
  return {
    outcome: total > 0 ? 'reversed' : 'restored',
    order: after,
    creditChange,
    bonusChange,
    entry: moved.entry,
    ...moved.money,
  };
}

/**
 * A refund or dispute of an order the gateway has not seen paid yet (its paid webhook late or lost) moves no money,
 * but is remembered on a pending or expired order, so the payment, when it is credited, is reversed in the same
 * transaction (`applyStandingReversals`) instead of the refund being lost.
 */
async function rememberForLaterPayment(
  transaction: Transaction<DatabaseSchema>,
  order: TopupOrderRecord,
  reversal: OrderReversal,
  now: number,
): Promise<void> {
  if (order.status !== 'pending' && order.status !== 'expired') return;
  switch (reversal.kind) {
    case 'refund':
      if (reversal.refundedMinor <= order.refundedMinor) return;
      await transaction
        .updateTable('topup_orders')
        .set({ refunded_minor: Math.min(reversal.refundedMinor, order.amountPaidMinor) })
        .where('id', '=', order.id)
        .execute();
      return;
    case 'dispute':
      await recordDispute(transaction, order.id, reversal, now);
      return;
    default: {
      const unreachable: never = reversal;
      throw new Error(`unknown reversal ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * Inside the transaction that credits an order: takes back the share of the refunds and disputes reported before the
 * payment was (see `rememberForLaterPayment`), updating the order; returns the order and the user's money after it
 * (undefined when no money moved), or undefined when nothing stood against the order.
 */
export async function applyStandingReversals(
  transaction: Transaction<DatabaseSchema>,
  order: TopupOrderRecord,
  now: number,
): Promise<{ order: TopupOrderRecord; money: UserMoneyRow | undefined } | undefined> {
  const disputes = await transaction
    .selectFrom('topup_disputes')
    .select(['amount_minor', 'status'])
    .where('order_id', '=', order.id)
    .execute();
  if (order.refundedMinor <= 0 && disputes.length === 0) return undefined;
  const share = computeReversedShare(
    order,
    order.refundedMinor,
    disputes.map((row) => ({ amountMinor: Number(row.amount_minor), status: row.status as DisputeStatus })),
  );
  const after: TopupOrderRecord = {
    ...order,
    status: share.status,
    reversedCreditMicroUnits: share.credit,
    reversedBonusMicroUnits: share.bonus,
  };
  await transaction
    .updateTable('topup_orders')
    .set({
      status: after.status,
      reversed_credit_micro_units: after.reversedCreditMicroUnits,
      reversed_bonus_micro_units: after.reversedBonusMicroUnits,
    })
    .where('id', '=', order.id)
    .execute();
  if (share.credit + share.bonus <= 0) return { order: after, money: undefined };
  const moved = await takeBack(
    transaction,
    order,
    'refund or dispute reported before the payment',
    share.credit,
    share.bonus,
    now,
  );
  return { order: after, money: moved.money };
}

/** Inserts or closes the dispute's row; returns whether it changed (a closed dispute stays as it closed). */
async function recordDispute(
  transaction: Transaction<DatabaseSchema>,
  orderId: string,
  reversal: Extract<OrderReversal, { kind: 'dispute' }>,
  now: number,
): Promise<boolean> {
  const id = `${reversal.method}:${reversal.disputeId}`;
  const existing = await transaction
    .selectFrom('topup_disputes')
    .select(['status', 'amount_minor'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (existing === undefined) {
    await transaction
      .insertInto('topup_disputes')
      .values({
        id,
        order_id: orderId,
        amount_minor: reversal.amountMinor,
        status: reversal.status,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return true;
  }
  // Only an open dispute moves, and only to its close: a late `created` after the close changes nothing.
  if (existing.status !== 'open' || reversal.status === 'open') return false;
  await transaction
    .updateTable('topup_disputes')
    .set({ status: reversal.status, updated_at: now })
    .where('id', '=', id)
    .execute();
  return true;
}

/** Takes `creditChange + bonusChange` back: what the balance covers from it, the rest as debt (never below zero). */
async function takeBack(
  transaction: Transaction<DatabaseSchema>,
  order: TopupOrderRecord,
  cause: string,
  creditChange: number,
  bonusChange: number,
  now: number,
): Promise<{ entry: LedgerEntryRecord; money: UserMoneyRow }> {
  const total = creditChange + bonusChange;
  // Locks the user's row (PostgreSQL) before reading the balance the split depends on.
  const locked = await transaction
    .updateTable('users')
    .set((expression) => ({ balance_sequence: expression('balance_sequence', '+', 1) }))
    .where('id', '=', order.userId)
    .returning(['balance', 'debt'])
    .executeTakeFirst();
  if (locked === undefined) throw new Error(`No user ${order.userId} exists`);
  const covered = Math.max(0, Math.min(Number(locked.balance), total));
  const uncovered = total - covered;
  const updated = await transaction
    .updateTable('users')
    .set((expression) => ({ balance: expression('balance', '-', covered), debt: expression('debt', '+', uncovered) }))
    .where('id', '=', order.userId)
    .returning(['balance', 'debt', 'balance_sequence'])
    .executeTakeFirstOrThrow();
  const parts = [`${formatMicro(creditChange)} of the credit`];
  if (bonusChange !== 0) parts.push(`${formatMicro(bonusChange)} of the first top-up bonus`);
  const entry = await insertEntry(transaction, {
    id: createRecordId('led', now),
    userId: order.userId,
    kind: 'topup-reversal',
    amount: -covered,
    debtChange: uncovered,
    description: `${cause}: ${parts.join(' and ')} taken back`,
    reference: order.id,
    createdAt: now,
  });
  return {
    entry,
    money: {
      balance: Number(updated.balance),
      debt: Number(updated.debt),
      sequence: Number(updated.balance_sequence),
    },
  };
}

/** Gives `amount` back (a dispute won) as a credit, which pays any debt first. */
async function giveBack(
  transaction: Transaction<DatabaseSchema>,
  order: TopupOrderRecord,
  cause: string,
  amount: number,
  now: number,
): Promise<{ entry: LedgerEntryRecord; money: UserMoneyRow }> {
  const updated = await transaction
    .updateTable('users')
    .set((expression) => ({
      balance: expression('balance', '+', amount),
      balance_sequence: expression('balance_sequence', '+', 1),
    }))
    .where('id', '=', order.userId)
    .returning(['balance', 'debt', 'balance_sequence'])
    .executeTakeFirst();
  if (updated === undefined) throw new Error(`No user ${order.userId} exists`);
  const entry = await insertEntry(transaction, {
    id: createRecordId('led', now),
    userId: order.userId,
    kind: 'topup-reversal',
    amount,
    debtChange: 0,
    description: `${cause}: ${formatMicro(amount)} given back`,
    reference: order.id,
    createdAt: now,
  });
  const repaid = await repayUserDebt(transaction, {
    userId: order.userId,
    money: { balance: Number(updated.balance), debt: Number(updated.debt), sequence: Number(updated.balance_sequence) },
    reference: entry.id,
    now,
  });
  return { entry, money: repaid.money };
}

async function insertEntry(
  transaction: Transaction<DatabaseSchema>,
  entry: LedgerEntryRecord,
): Promise<LedgerEntryRecord> {
  await transaction
    .insertInto('ledger_entries')
    .values({
      id: entry.id,
      user_id: entry.userId,
      kind: entry.kind,
      amount: entry.amount,
      debt_change: entry.debtChange,
      description: entry.description,
      reference: entry.reference,
      created_at: entry.createdAt,
    })
    .execute();
  return entry;
}

function describeReversal(reversal: OrderReversal): string {
  const provider = reversal.method === 'stripe' ? 'Stripe' : 'Alipay';
  switch (reversal.kind) {
    case 'refund':
      return `${provider} refund`;
    case 'dispute':
      return reversal.status === 'open' ? `${provider} dispute opened` : `${provider} dispute ${reversal.status}`;
    default: {
      const unreachable: never = reversal;
      throw new Error(`unknown reversal ${JSON.stringify(unreachable)}`);
    }
  }
}

/** micro-units as a six-decimal string, e.g. 1500000 -> `1.500000` */
function formatMicro(amount: number): string {
  const whole = Math.floor(amount / 1_000_000);
  return `${whole}.${String(amount % 1_000_000).padStart(6, '0')}`;
}
