import type { Command } from 'commander';
import { formatMicroUnits } from '../../billing/money.js';
import { printResult } from '../open-cli-store.js';
import { withCliBillingStore } from '../open-cli-billing-store.js';

/** `gateway billing verify`: proves every balance equals the sum of its ledger; exits 1 and lists offenders otherwise. */
export function registerBillingCommands(program: Command): void {
  const billing = program.command('billing').description('check money and accounting');
  billing
    .command('verify')
    .description('check that every balance equals the sum of its ledger entries')
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withCliBillingStore(async (store) => {
        const mismatches = await store.findBalanceMismatches();
        const lines = mismatches.map(
          (mismatch) => `MISMATCH ${mismatch.userId} ${mismatch.email}: balance ${formatMicroUnits(mismatch.balance)} != ledger ${formatMicroUnits(mismatch.ledgerSum)}`,
        );
        printResult(options.json, { ok: mismatches.length === 0, mismatches }, mismatches.length === 0 ? 'OK: every balance equals the sum of its ledger.' : lines.join('\n'));
        if (mismatches.length > 0) process.exitCode = 1;
      }),
    );
}
