import type { LedgerEntry, LedgerRow } from './ledger-types';

/**
 * Adds the balance after each entry of a newest-first ledger, walking back from the current balance
 * (the gateway keeps balance = Σ amount, docs/BILLING.md): the newest entry left the current balance, and each
 * older one left what the next newer one started from.
 */
export function withBalanceAfter(entries: readonly LedgerEntry[], currentBalance: number): LedgerRow[] {
  let balance = currentBalance;
  return entries.map((entry) => {
    const row = { ...entry, balanceAfter: balance };
    balance -= entry.amount;
    return row;
  });
}
