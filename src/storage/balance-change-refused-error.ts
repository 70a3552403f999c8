/**
 * A debit (a negative adjustment from the API or the CLI) larger than the stored balance: refused whole, nothing
 * written, because no write may leave a balance below zero. `balance` and `debit` are micro-units.
 */
export class BalanceChangeRefusedError extends Error {
  constructor(
    readonly balance: number,
    readonly debit: number,
  ) {
    super(
      `The debit of ${formatAmount(debit)} exceeds the balance of ${formatAmount(balance)}; a debit may not leave a negative balance.`,
    );
    this.name = 'BalanceChangeRefusedError';
  }
}

/** Micro-units as currency units with six decimals, exactly (storage may not import billing's formatter). */
function formatAmount(microUnits: number): string {
  const sign = microUnits < 0 ? '-' : '';
  const absolute = BigInt(Math.abs(microUnits));
  return `${sign}${absolute / 1_000_000n}.${(absolute % 1_000_000n).toString().padStart(6, '0')}`;
}
