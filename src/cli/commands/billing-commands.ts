import type { Command } from 'commander';
import { formatMicroUnits } from '../../billing/money.js';
import type { BalanceMismatch } from '../../storage/billing-records.js';
import type { OrderLedgerMismatch } from '../../storage/find-order-ledger-mismatches.js';
import type { TaskHoldMismatch } from '../../storage/video-task-records.js';
import { printResult } from '../open-cli-store.js';
import { withCliBillingStore } from '../open-cli-billing-store.js';
import { withCliVideoTaskStore } from '../open-cli-video-task-store.js';
import { loadBillingConfig } from '../../billing/billing-config.js';
import { createRedisClient } from '../../billing/create-redis-client.js';
import { findWalletDrift, type WalletDriftEntry, type WalletDriftReport } from '../../billing/find-wallet-drift.js';
import type { BillingStore } from '../../storage/billing-store.js';
import { pino } from 'pino';

/**
 * `gateway billing verify`: proves every balance equals the sum of its ledger amounts and every debt the sum of its
 * ledger debt changes, neither below zero, that every top-up order's ledger entries add up to its credit, bonus and
 * reversals, and that every video task hold adds up (an open hold only on a running
 * task, none on a finished one, every hold ledger entry naming a task), and with GATEWAY_REDIS_URL that the shared
 * wallet agrees with the database (see `findWalletDrift`); exits 1 and lists offenders otherwise.
 */
export function registerBillingCommands(program: Command): void {
  const billing = program.command('billing').description('check money and accounting');
  billing
    .command('verify')
    .description(
      'check that every balance and debt equals the sum of its ledger entries, every top-up order its credits and reversals, and every video task hold adds up',
    )
    .option('--json', 'print the result as JSON')
    .action((options: { json?: boolean }) =>
      withCliBillingStore(async (store) => {
        const mismatches = await store.findBalanceMismatches();
        const orderMismatches = await store.findOrderLedgerMismatches();
        const taskHoldMismatches = await withCliVideoTaskStore((tasks) => tasks.findTaskHoldMismatches());
        const wallet = await checkSharedWallet(store);
        const ok =
          mismatches.length === 0 &&
          orderMismatches.length === 0 &&
          taskHoldMismatches.length === 0 &&
          (wallet?.drift.length ?? 0) === 0;
        const walletLine = wallet
          ? `The shared wallet: ${wallet.wallets} wallets, ${wallet.drift.length} disagreements; live nodes hold ${formatMicroUnits(wallet.liveHeld)} and have ${formatMicroUnits(wallet.livePending)} not written yet; stopped nodes left ${formatMicroUnits(wallet.deadNodeAmounts)} (removed by the next sweep).`
          : undefined;
        printResult(
          options.json,
          { ok, mismatches, orderMismatches, taskHoldMismatches, ...(wallet ? { wallet } : {}) },
          ok
            ? [
                'OK: every balance and debt equals the sum of its ledger, every top-up order its credits and reversals, and every video task hold adds up.',
                walletLine,
              ]
                .filter(Boolean)
                .join('\n')
            : [
                ...mismatches.map(describeMismatch),
                ...orderMismatches.map(describeOrderMismatch),
                ...taskHoldMismatches.map(describeTaskHoldMismatch),
                ...(wallet?.drift ?? []).map(describeWalletDrift),
                ...(walletLine ? [walletLine] : []),
              ].join('\n'),
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

/** With GATEWAY_REDIS_URL set, compares the shared wallet with the database; undefined without Redis. */
async function checkSharedWallet(store: BillingStore): Promise<WalletDriftReport | undefined> {
  const config = loadBillingConfig();
  if (!config.redisUrl) return undefined;
  const redis = createRedisClient(config.redisUrl, {
    commandTimeoutMs: config.redisCommandTimeoutMs,
    connectTimeoutMs: config.redisConnectTimeoutMs,
    logger: pino({ level: 'warn' }, process.stderr),
    role: 'verify',
  });
  try {
    await redis.connect();
    return await findWalletDrift(redis, (userIds) => store.readStoredBalances(userIds));
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}

function describeOrderMismatch(mismatch: OrderLedgerMismatch): string {
  return `ORDER ${mismatch.orderId} (${mismatch.status}, user ${mismatch.userId}): credited ${formatMicroUnits(mismatch.ledgerCredit)} in ${mismatch.creditEntries} top-up entries, expected ${formatMicroUnits(mismatch.expectedCredit)}; taken back ${formatMicroUnits(mismatch.ledgerReversed)}, expected ${formatMicroUnits(mismatch.expectedReversed)}`;
}

function describeWalletDrift(entry: WalletDriftEntry): string {
  return `WALLET ${entry.userId} ${entry.field} (${entry.problem}): redis ${formatMicroUnits(entry.redis)}, expected ${formatMicroUnits(entry.expected)}`;
}
