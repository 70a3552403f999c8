import type { Kysely, Selectable } from 'kysely';
import { createRecordId } from '../core/create-record-id.js';
import type { AccountAdminStore, RedemptionCodeRecord } from './account-admin-store.js';
import type { LedgerEntryRecord } from './billing-records.js';
import type { DatabaseSchema, RedemptionCodesTable } from './database-schema.js';
import { repayUserDebt } from './repay-user-debt.js';
import { writeWithRevision } from './write-with-revision.js';

/** Rows per INSERT, well under SQLite's limit on bound parameters. */
const insertChunkSize = 200;

/** The account-administration store over a Kysely database (SQLite or PostgreSQL). */
export function createAccountAdminStore(database: Kysely<DatabaseSchema>): AccountAdminStore {
  return {
    async createRedemptionBatch(batch) {
      await database.transaction().execute(async (transaction) => {
        for (let start = 0; start < batch.codes.length; start += insertChunkSize) {
          const rows = batch.codes.slice(start, start + insertChunkSize).map((code) => ({
            id: code.id,
            batch_id: batch.batchId,
            code_hash: code.codeHash,
            code_prefix: code.codePrefix,
            amount: batch.amount,
            status: 'active' as const,
            note: batch.note,
            expires_at: batch.expiresAt,
            created_at: batch.createdAt,
            created_by: batch.createdBy,
            redeemed_by: null,
            redeemed_at: null,
            disabled_at: null,
          }));
          await transaction.insertInto('redemption_codes').values(rows).execute();
        }
      });
    },

    async listRedemptionCodes(filter) {
      let query = database.selectFrom('redemption_codes').selectAll();
      if (filter.batchId !== undefined) query = query.where('batch_id', '=', filter.batchId);
      switch (filter.status) {
        case undefined:
          break;
        case 'active':
          query = query
            .where('status', '=', 'active')
            .where((expression) =>
              expression.or([expression('expires_at', 'is', null), expression('expires_at', '>', filter.now)]),
            );
          break;
        case 'expired':
          query = query.where('status', '=', 'active').where('expires_at', '<=', filter.now);
          break;
        case 'redeemed':
        case 'disabled':
          query = query.where('status', '=', filter.status);
          break;
        default:
          assertNever(filter.status);
      }
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
      return rows.map((row) => decodeRedemptionCode(row, filter.now));
    },

    async disableRedemptionCodes(target, now) {
      let query = database
        .updateTable('redemption_codes')
        .set({ status: 'disabled', disabled_at: now })
        .where('status', '=', 'active');
      query =
        'batchId' in target ? query.where('batch_id', '=', target.batchId) : query.where('id', '=', target.codeId);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    redeemRedemptionCode({ codeHash, userId, now }) {
      return writeWithRevision(database, 'billing_revision', async (transaction) => {
        // The compare-and-set: only one transaction can move a code from active to redeemed.
        const claimed = await transaction
          .updateTable('redemption_codes')
          .set({ status: 'redeemed', redeemed_by: userId, redeemed_at: now })
          .where('code_hash', '=', codeHash)
          .where('status', '=', 'active')
          .where((expression) =>
            expression.or([expression('expires_at', 'is', null), expression('expires_at', '>', now)]),
          )
          .returningAll()
          .executeTakeFirst();
        if (claimed === undefined) return undefined;
        const amount = Number(claimed.amount);
        const updated = await transaction
          .updateTable('users')
          .set((expression) => ({
            balance: expression('balance', '+', amount),
            balance_sequence: expression('balance_sequence', '+', 1),
          }))
          .where('id', '=', userId)
          .returning(['balance', 'debt', 'balance_sequence'])
          .executeTakeFirst();
        if (updated === undefined) throw new Error(`No user ${userId} exists`);
        const entry: LedgerEntryRecord = {
          id: createRecordId('led', now),
          userId,
          kind: 'redemption',
          amount,
          debtChange: 0,
          description: `redemption code ${claimed.code_prefix}…`,
          reference: `redemption:${claimed.id}`,
          createdAt: now,
        };
        await transaction
          .insertInto('ledger_entries')
          .values({
            id: entry.id,
            user_id: userId,
            kind: entry.kind,
            amount,
            debt_change: 0,
            description: entry.description,
            reference: entry.reference,
            created_at: now,
          })
          .execute();
        const money = {
          balance: Number(updated.balance),
          debt: Number(updated.debt),
          sequence: Number(updated.balance_sequence),
        };
        const repaid = await repayUserDebt(transaction, { userId, money, reference: entry.id, now });
        return {
          code: decodeRedemptionCode(claimed, now),
          entry,
          repayment: repaid.repayment,
          balance: repaid.money.balance,
          debt: repaid.money.debt,
        };
      });
    },

    setUserStatus(userId, status) {
      return writeWithRevision(database, 'routing_revision', async (transaction) => {
        const result = await transaction
          .updateTable('users')
          .set({ status })
          .where('id', '=', userId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        if (status === 'disabled')
          await transaction.deleteFrom('console_sessions').where('user_id', '=', userId).execute();
        return true;
      });
    },

    async countAdmins() {
      const row = await database
        .selectFrom('users')
        .select((expression) => expression.fn.countAll<number>().as('count'))
        .where('role', '=', 'admin')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
}

function decodeRedemptionCode(row: Selectable<RedemptionCodesTable>, now: number): RedemptionCodeRecord {
  const expiresAt = row.expires_at === null ? null : Number(row.expires_at);
  const expired = row.status === 'active' && expiresAt !== null && expiresAt <= now;
  return {
    id: row.id,
    batchId: row.batch_id,
    codePrefix: row.code_prefix,
    amount: Number(row.amount),
    status: expired ? 'expired' : row.status,
    note: row.note,
    expiresAt,
    createdAt: Number(row.created_at),
    createdBy: row.created_by,
    redeemedBy: row.redeemed_by,
    redeemedAt: row.redeemed_at === null ? null : Number(row.redeemed_at),
    disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
  };
}

function assertNever(value: never): never {
  throw new Error(`Unexpected redemption code status ${String(value)}`);
}
