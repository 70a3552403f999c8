import type { Transaction } from 'kysely';
import { createRecordId } from '../core/create-record-id.js';
import type { LedgerEntryRecord } from './billing-records.js';
import type { DatabaseSchema } from './database-schema.js';
import { repayUserDebt, type UserMoneyRow } from './repay-user-debt.js';

/**
 * Credits a user inside the caller's transaction the way `BillingStore.changeBalance` does: the balance, one ledger
 * entry and, for a user in debt, the `debt-repayment` entry. Returns the user's money after it.
 */
export async function creditUserInTransaction(
  transaction: Transaction<DatabaseSchema>,
  credit: {
    userId: string;
    kind: 'top-up' | 'bonus';
    amount: number;
    description: string;
    reference: string;
    now: number;
  },
): Promise<UserMoneyRow> {
  if (!Number.isSafeInteger(credit.amount) || credit.amount <= 0)
    throw new Error('A credit must be a positive integer of micro-units');
  const updated = await transaction
    .updateTable('users')
    .set((expression) => ({
      balance: expression('balance', '+', credit.amount),
      balance_sequence: expression('balance_sequence', '+', 1),
    }))
    .where('id', '=', credit.userId)
    .returning(['balance', 'debt', 'balance_sequence'])
    .executeTakeFirst();
  if (updated === undefined) throw new Error(`No user ${credit.userId} exists`);
  const entry: LedgerEntryRecord = {
    id: createRecordId('led', credit.now),
    userId: credit.userId,
    kind: credit.kind,
    amount: credit.amount,
    debtChange: 0,
    description: credit.description,
    reference: credit.reference,
    createdAt: credit.now,
  };
  await transaction
    .insertInto('ledger_entries')
    .values({
      id: entry.id,
      user_id: entry.userId,
      kind: entry.kind,
      amount: entry.amount,
      debt_change: 0,
      description: entry.description,
      reference: entry.reference,
      created_at: entry.createdAt,
    })
    .execute();
  const money = {
    balance: Number(updated.balance),
    debt: Number(updated.debt),
    sequence: Number(updated.balance_sequence),
  };
  const repaid = await repayUserDebt(transaction, {
    userId: credit.userId,
    money,
    reference: entry.id,
    now: credit.now,
  });
  return repaid.money;
}
