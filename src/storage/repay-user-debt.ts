import type { Transaction } from 'kysely';
import { createRecordId } from '../core/create-record-id.js';
import type { LedgerEntryRecord } from './billing-records.js';
import type { DatabaseSchema } from './database-schema.js';

/** A user's money right after a write inside a transaction. */
export interface UserMoneyRow {
  /** micro-units */
  balance: number;
  /** micro-units owed */
  debt: number;
  /** `users.balance_sequence` */
  sequence: number;
}

/**
 * Pays a user's debt from their balance when both are above zero: one `debt-repayment` ledger entry (amount and
 * debt change both −min(balance, debt)) and the matching change of `users`, inside the caller's transaction, so
 * balance = Σ amount and debt = Σ debt_change keep holding. Returns the new state and the entry (undefined when
 * nothing was owed or nothing could be paid).
 */
export async function repayUserDebt(
  transaction: Transaction<DatabaseSchema>,
  options: { userId: string; money: UserMoneyRow; reference: string | null; now: number },
): Promise<{ money: UserMoneyRow; repayment: LedgerEntryRecord | undefined }> {
  const { userId, money } = options;
  const repaid = Math.min(money.balance, money.debt);
  if (repaid <= 0) return { money, repayment: undefined };
  const updated = await transaction
    .updateTable('users')
    .set((expression) => ({
      balance: expression('balance', '-', repaid),
      debt: expression('debt', '-', repaid),
      balance_sequence: expression('balance_sequence', '+', 1),
    }))
    .where('id', '=', userId)
    .returning(['balance', 'debt', 'balance_sequence'])
    .executeTakeFirstOrThrow();
  const repayment: LedgerEntryRecord = {
    id: createRecordId('led'),
    userId,
    kind: 'debt-repayment',
    amount: -repaid,
    debtChange: -repaid,
    description: 'debt paid from the balance',
    reference: options.reference,
    createdAt: options.now,
  };
  await transaction
    .insertInto('ledger_entries')
    .values({
      id: repayment.id,
      user_id: userId,
      kind: repayment.kind,
      amount: repayment.amount,
      debt_change: repayment.debtChange,
      description: repayment.description,
      reference: repayment.reference,
      created_at: repayment.createdAt,
    })
    .execute();
  return {
    money: { balance: Number(updated.balance), debt: Number(updated.debt), sequence: Number(updated.balance_sequence) },
    repayment,
  };
}
