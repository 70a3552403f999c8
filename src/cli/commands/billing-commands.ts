import type { Command } from 'commander';
import { formatMicroUnits } from '../../billing/money.js';
import type { BalanceMismatch } from '../../storage/billing-records.js';
import type { TaskHoldMismatch } from '../../storage/video-task-records.js';
import { printResult } from '../open-cli-store.js';
import { withCliBillingStore } from '../open-cli-billing-store.js';
import { withCliVideoTaskStore } from '../open-cli-video-task-store.js';

/**
 * `gateway billing verify`: proves every balance equals the sum of its ledger amounts and every debt the sum of its
 * ledger debt changes, neither below zero, and that every video task hold adds up (an open hold only on a running
 * task, none on a finished one, every hold ledger entry naming a task); exits 1 and lists offenders otherwise.
 */
export function registerBillingCommands(program: Command): void {
  const billing = program.command('billing').description('check money and accounting');
  billing
    .command('verify')
    .description(
      'check that every balance and debt equals the sum of its ledger entries and every video task hold adds up',
    )
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withCliBillingStore(async (store) => {
        const mismatches = await store.findBalanceMismatches();
        const taskHoldMismatches = await withCliVideoTaskStore((tasks) => tasks.findTaskHoldMismatches());
        const ok = mismatches.length === 0 && taskHoldMismatches.length === 0;
        printResult(
          options.json,
          { ok, mismatches, taskHoldMismatches },
          ok
            ? 'OK: every balance and debt equals the sum of its ledger, and every video task hold adds up.'
            : [...mismatches.map(describeMismatch), ...taskHoldMismatches.map(describeTaskHoldMismatch)].join('\n'),
        );
        if (!ok) process.exitCode = 1;
      }),
    );
}

function describeMismatch(mismatch: BalanceMismatch): string {
  return (
    `MISMATCH ${mismatch.userId} ${mismatch.email}: balance ${formatMicroUnits(mismatch.balance)} ${mismatch.balance === mismatch.ledgerSum ? '=' : '!='} ledger ${formatMicroUnits(mismatch.ledgerSum)}, ` +
    `debt ${formatMicroUnits(mismatch.debt)} ${mismatch.debt === mismatch.ledgerDebtSum ? '=' : '!='} ledger debt ${formatMicroUnits(mismatch.ledgerDebtSum)}`
  );
}

function describeTaskHoldMismatch(mismatch: TaskHoldMismatch): string {
  return `TASK HOLD ${mismatch.taskId} (user ${mismatch.userId}, ${mismatch.state}): ${mismatch.problem}`;
}
