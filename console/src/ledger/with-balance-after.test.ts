import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from './ledger-types';
import { withBalanceAfter } from './with-balance-after';

const entry = (id: string, amount: number): LedgerEntry => ({ id, userId: 'u1', kind: 'top-up', amount, debtChange: 0, description: '', reference: null, createdAt: 0 });

describe('withBalanceAfter', () => {
  it('walks back from the current balance through a newest-first ledger', () => {
    // Oldest first: top-up 10, bonus 1.5, a charge of 0.25 → balance 11.25.
    const rows = withBalanceAfter([entry('charge', -250_000), entry('bonus', 1_500_000), entry('top-up', 10_000_000)], 11_250_000);
    expect(rows.map((row) => [row.id, row.balanceAfter])).toEqual([['charge', 11_250_000], ['bonus', 11_500_000], ['top-up', 10_000_000]]);
  });

  it('continues across pages when given every row read so far', () => {
    expect(withBalanceAfter([], 5)).toEqual([]);
    expect(withBalanceAfter([entry('a', 5), entry('b', 0), entry('c', 7)], 12).map((row) => row.balanceAfter)).toEqual([12, 7, 7]);
  });
});
