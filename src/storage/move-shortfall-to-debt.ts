import type { Transaction } from 'kysely';
import { createRecordId } from '../core/create-record-id.js';
import type { LedgerEntryRecord } from './billing-records.js';
import type { DatabaseSchema } from './database-schema.js';
import type { UserMoneyRow } from './repay-user-debt.js';

/**
 * The floor under every balance: when a write inside the caller's transaction left `users.balance` below zero (a
 * charge the stored balance could not cover, because other nodes' unwritten charges or a debt repayment had already
 * spent it), moves the shortfall to the debt in the same transaction: balance and debt both +shortfall, one
 * `debt-from-shortfall` ledger entry (amount and debt change both +shortfall), so balance = Σ amount and
 * debt = Σ debt_change keep holding and debt − balance is unchanged (nothing forgiven, nothing charged twice).
 * Returns the new state and the entry (undefined when the balance was not negative).
 */
export async function moveShortfallToDebt(
  transaction: Transaction<DatabaseSchema>,
  options: { userId: string; money: UserMoneyRow; reference: string | null; now: number },
): Promise<{ money: UserMoneyRow; shortfall: LedgerEntryRecord | undefined }> {
  const { userId, money } = options;
  const shortfall = -money.balance;
  if (shortfall <= 0) return { money, shortfall: undefined };
  const updated = await transaction
    .updateTable('users')
    .set((expression) => ({
      balance: expression('balance', '+', shortfall),
      debt: expression('debt', '+', shortfall),
      balance_sequence: expression('balance_sequence', '+', 1),
    }))
    .where('id', '=', userId)
    .returning(['balance', 'debt', 'balance_sequence'])
    .executeTakeFirstOrThrow();
  const entry: LedgerEntryRecord = {
    id: createRecordId('led', options.now),
    userId,
    kind: 'debt-from-shortfall',
    amount: shortfall,
    debtChange: shortfall,
    description: 'charge the stored balance could not cover (already spent elsewhere) added to the debt',
    reference: options.reference,
    createdAt: options.now,
  };
  await transaction
    .insertInto('ledger_entries')
    .values({
      id: entry.id,
      user_id: userId,
      kind: entry.kind,
      amount: entry.amount,
      debt_change: entry.debtChange,
      description: entry.description,
      reference: entry.reference,
      created_at: entry.createdAt,
    })
    .execute();
  return {
    money: { balance: Number(updated.balance), debt: Number(updated.debt), sequence: Number(updated.balance_sequence) },
    shortfall: entry,
  };
}
