import type { Command } from 'commander';
import { formatMicroUnits } from '../../billing/money.js';
import type { BalanceMismatch } from '../../storage/billing-records.js';
import { printResult } from '../open-cli-store.js';
import { withCliBillingStore } from '../open-cli-billing-store.js';

/**
 * `gateway billing verify`: proves every balance equals the sum of its ledger amounts and every debt the sum of its
 * ledger debt changes, neither below zero; exits 1 and lists offenders otherwise.
 */
export function registerBillingCommands(program: Command): void {
  const billing = program.command('billing').description('check money and accounting');
  billing
    .command('verify')
    .description('check that every balance and debt equals the sum of its ledger entries')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withCliBillingStore(async (store) => {
        const mismatches = await store.findBalanceMismatches();
        printResult(
          options.json,
          { ok: mismatches.length === 0, mismatches },
          mismatches.length === 0 ? 'OK: every balance and debt equals the sum of its ledger.' : mismatches.map(describeMismatch).join('\n'),
        );
        if (mismatches.length > 0) process.exitCode = 1;
      }),
    );
}

function describeMismatch(mismatch: BalanceMismatch): string {
  return (
    `MISMATCH ${mismatch.userId} ${mismatch.email}: balance ${formatMicroUnits(mismatch.balance)} ${mismatch.balance === mismatch.ledgerSum ? '=' : '!='} ledger ${formatMicroUnits(mismatch.ledgerSum)}, ` +
    `debt ${formatMicroUnits(mismatch.debt)} ${mismatch.debt === mismatch.ledgerDebtSum ? '=' : '!='} ledger debt ${formatMicroUnits(mismatch.ledgerDebtSum)}`
  );
}
