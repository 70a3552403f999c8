import { sql, type Kysely, type Selectable } from 'kysely';
import type { DatabaseSchema, TopupOrdersTable } from './database-schema.js';
import { creditUserInTransaction } from './credit-user-in-transaction.js';
import { applyStandingReversals, reverseTopupOrder } from './reverse-topup-order.js';
import {
  paidOrderStatuses,
  type PaymentMethod,
  type TopupOrderRecord,
  type TopupOrderStatus,
  type WebhookDeliveryOutcome,
} from './topup-order-records.js';
import type { TopupOrderStore } from './topup-order-store.js';
import { writeWithRevision } from './write-with-revision.js';

/** Top-up orders over the gateway's Kysely database (shares the connection, so SQLite never locks itself). */
export function createTopupOrderStore(database: Kysely<DatabaseSchema>): TopupOrderStore {
  return {
    async createOrder(order) {
      await database.insertInto('topup_orders').values(encodeOrder(order)).execute();
    },

    async recordWebhookDelivery(delivery) {
      // One row per method and verification result, overwritten: the status page needs only the latest, and a flood
      // of forged (unauthenticated) deliveries cannot grow the table.
      const columns = { received_at: delivery.receivedAt, outcome: delivery.outcome, order_id: delivery.orderId };
      await database
        .insertInto('payment_webhook_deliveries')
        .values({
          id: `${delivery.method}:${delivery.verified ? 'verified' : 'rejected'}`,
          method: delivery.method,
          verified: delivery.verified ? 1 : 0,
          ...columns,
        })
        .onConflict((conflict) => conflict.column('id').doUpdateSet(columns))
        .execute();
    },

    async findLastWebhookDelivery(method) {
      const row = await database
        .selectFrom('payment_webhook_deliveries')
        .selectAll()
        .where('method', '=', method)
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      return {
        method: row.method as PaymentMethod,
        receivedAt: Number(row.received_at),
        verified: Number(row.verified) === 1,
        outcome: row.outcome as WebhookDeliveryOutcome,
        orderId: row.order_id,
      };
    },

    async findOrder(orderId) {
      const row = await database.selectFrom('topup_orders').selectAll().where('id', '=', orderId).executeTakeFirst();
      return row === undefined ? undefined : decodeOrder(row);
    },

    async listOrders(filter) {
      let query = database.selectFrom('topup_orders').selectAll();
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      if (filter.method !== undefined) query = query.where('method', '=', filter.method);
      const before = filter.before;
      if (before) {
        query = query.where((expression) =>
          expression.or([
            expression('created_at', '<', before.createdAt),
            expression.and([expression('created_at', '=', before.createdAt), expression('id', '<', before.id)]),
          ]),
        );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
      return rows.map(decodeOrder);
    },

    async listPendingOrdersBefore(time, limit, perUser) {
      // A window function ranks each user's orders oldest first (SQLite 3.25+ and PostgreSQL alike).
      const ranked = database
        .selectFrom('topup_orders')
        .selectAll()
        .select(sql<number>`row_number() over (partition by user_id order by created_at, id)`.as('user_rank'))
        .where('status', '=', 'pending')
        .where('created_at', '<', time)
        .as('ranked');
      const rows = await database
        .selectFrom(ranked)
        .selectAll()
        .where('user_rank', '<=', perUser)
        .orderBy('user_rank')
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(({ user_rank: _rank, ...row }) => decodeOrder(row));
    },

    async countPendingOrders(userId) {
      const row = await database
        .selectFrom('topup_orders')
        .select((expression) => expression.fn.countAll<number | string | bigint>().as('pending'))
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(row?.pending ?? 0);
    },

    async setProviderReference(orderId, providerReference, now) {
      await database
        .updateTable('topup_orders')
        .set({ provider_reference: providerReference, updated_at: now })
        .where('id', '=', orderId)
        .where('status', '=', 'pending')
        .execute();
    },

    async transitionOrder(orderId, from, to, details) {
      const result = await database
        .updateTable('topup_orders')
        .set({ status: to, failure_reason: details.failureReason ?? null, updated_at: details.now })
        .where('id', '=', orderId)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    fulfilOrder(orderId, details) {
      return writeWithRevision(database, 'billing_revision', async (transaction) => {
        // The compare-and-set is the exactly-once guard: a second delivery finds the order paid and writes nothing.
        const claimed = await transaction
          .updateTable('topup_orders')
          .set((expression) => ({
            status: 'paid',
            paid_at: details.now,
            updated_at: details.now,
            provider_reference: details.providerReference ?? expression.ref('provider_reference'),
          }))
          .where('id', '=', orderId)
          .where('status', 'in', ['pending', 'expired'])
          .returningAll()
          .executeTakeFirst();
        if (claimed === undefined) {
          const row = await transaction
            .selectFrom('topup_orders')
            .selectAll()
            .where('id', '=', orderId)
            .executeTakeFirst();
          return { outcome: 'unchanged', order: row === undefined ? undefined : decodeOrder(row) };
        }
        const order = decodeOrder(claimed);
        const alreadyCredited = await transaction
          .selectFrom('ledger_entries')
          .select('id')
          .where('reference', '=', order.id)
          .where('kind', '=', 'top-up')
          .executeTakeFirst();
        if (alreadyCredited !== undefined) throw new Error(`Order ${order.id} already has a top-up ledger entry`);
        // The balance update locks the user's row (PostgreSQL), so the first-order check below sees every other commit.
        let money = await creditUserInTransaction(transaction, {
          userId: order.userId,
          kind: 'top-up',
          amount: order.creditMicroUnits,
          description: `top-up by ${order.method}`,
          reference: order.id,
          now: details.now,
        });
        const earlierPaid = await transaction
          .selectFrom('topup_orders')
          .select('id')
          .where('user_id', '=', order.userId)
          .where('status', 'in', [...paidOrderStatuses])
          .where('id', '!=', order.id)
          .executeTakeFirst();
        const bonus = earlierPaid === undefined ? order.bonusMicroUnits : 0;
        if (bonus > 0)
          money = await creditUserInTransaction(transaction, {
            userId: order.userId,
            kind: 'bonus',
            amount: bonus,
            description: 'first top-up bonus',
            reference: order.id,
            now: details.now,
          });
        if (bonus !== order.bonusMicroUnits)
          await transaction
            .updateTable('topup_orders')
            .set({ bonus_micro_units: bonus })
            .where('id', '=', order.id)
            .execute();
        // A refund or dispute reported before this payment was seen is taken back in the same transaction.
        const standing = await applyStandingReversals(transaction, { ...order, bonusMicroUnits: bonus }, details.now);
        if (standing?.money) money = standing.money;
        return { outcome: 'credited', order: standing?.order ?? { ...order, bonusMicroUnits: bonus }, ...money };
      });
    },

    reverseOrder(orderId, reversal, details) {
      return writeWithRevision(database, 'billing_revision', (transaction) =>
        reverseTopupOrder(transaction, orderId, reversal, details.now, decodeOrder),
      );
    },

    async hasPaidOrder(userId) {
      const row = await database
        .selectFrom('topup_orders')
        .select('id')
        .where('user_id', '=', userId)
        .where('status', 'in', [...paidOrderStatuses])
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

function encodeOrder(order: TopupOrderRecord): Selectable<TopupOrdersTable> {
  return {
    id: order.id,
    user_id: order.userId,
    method: order.method,
    status: order.status,
    amount_paid_minor: order.amountPaidMinor,
    currency: order.currency,
    credit_micro_units: order.creditMicroUnits,
    bonus_micro_units: order.bonusMicroUnits,
    provider_reference: order.providerReference,
    failure_reason: order.failureReason,
    created_at: order.createdAt,
    paid_at: order.paidAt,
    updated_at: order.updatedAt,
    refunded_minor: order.refundedMinor,
    reversed_credit_micro_units: order.reversedCreditMicroUnits,
    reversed_bonus_micro_units: order.reversedBonusMicroUnits,
  };
}

function decodeOrder(row: Selectable<TopupOrdersTable>): TopupOrderRecord {
  return {
    id: row.id,
    userId: row.user_id,
    method: row.method as PaymentMethod,
    status: row.status as TopupOrderStatus,
    amountPaidMinor: Number(row.amount_paid_minor),
    currency: row.currency,
    creditMicroUnits: Number(row.credit_micro_units),
    bonusMicroUnits: Number(row.bonus_micro_units),
    providerReference: row.provider_reference,
    failureReason: row.failure_reason,
    createdAt: Number(row.created_at),
    paidAt: row.paid_at === null ? null : Number(row.paid_at),
    updatedAt: Number(row.updated_at),
    refundedMinor: Number(row.refunded_minor),
    reversedCreditMicroUnits: Number(row.reversed_credit_micro_units),
    reversedBonusMicroUnits: Number(row.reversed_bonus_micro_units),
  };
}
