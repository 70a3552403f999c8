// What every matrix case asserts once its request settled: the usage log, the balance and the ledger agree on one charge.
import { expect } from 'vitest';
import type { UsageLogRecord } from '../../src/storage/billing-records.js';
import type { BillingTestGateway } from '../billing/start-billing-test-gateway.js';

/** The charge the ledger recorded for the user's requests: what the balance paid plus what became debt. */
export async function ledgerChargeOf(gateway: BillingTestGateway, userId: string): Promise<number> {
  const entries = await gateway.running.billing.store.listLedgerEntries(userId, { limit: 100 });
  return entries
    .filter((entry) => entry.kind === 'settlement')
    .reduce((total, entry) => total - entry.amount + entry.debtChange, 0);
}

/** Asserts the log's cost is `expectedCharge`, and that the balance and the ledger were charged exactly that. */
export async function expectCharged(
  gateway: BillingTestGateway,
  log: UsageLogRecord,
  startingBalance: number,
  expectedCharge: number,
): Promise<void> {
  expect(log.cost).toBe(expectedCharge);
  expect(await gateway.running.billing.store.readBalance(log.userId)).toBe(startingBalance - expectedCharge);
  expect(await ledgerChargeOf(gateway, log.userId)).toBe(expectedCharge);
}
