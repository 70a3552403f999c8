import type { OrderLedgerMismatch } from './find-order-ledger-mismatches.js';
import type { ApiKeyBillingChanges } from './load-api-key-billing-changes.js';
import type { ModelPriceRecord as ModelPrice } from './price-records.js';
import type {
  ApiKeyBillingRecord,
  BalanceChangeResult,
  BalanceMismatch,
  BillingSnapshotRecords,
  LedgerEntryRecord,
  NewBalanceChange,
  RequestLimits,
  SettledBalance,
  SettlementBatch,
  StoredBalance,
  UsageLogFilter,
  UsageLogRecord,
  UsageSummaryFilter,
  UsageSummaryRecord,
  HourlyUsageFilter,
  HourlyUsageRecord,
  RefusedRequestCount,
  RefusedRequestCountFilter,
} from './billing-records.js';
import type { UserRecord } from './store-records.js';
import type { OldestRowsBatch } from './delete-oldest-rows.js';
import type { UsageRetainedTable } from './usage-retention-batches.js';

/**
 * Durable money and usage. Writes that change what a running gateway keeps in memory (credits, prices,
 * ratios, limits) bump the billing revision in the same transaction, so every node reloads.
 */
export interface BillingStore {
  readonly dialect: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;

  /**
   * writes one ledger entry and the balance change in one transaction; a credit to a user in debt pays the debt
   * first (a `debt-repayment` entry in the same transaction); returns the entries and the new balance and debt
   */
  changeBalance(change: NewBalanceChange): Promise<BalanceChangeResult>;
  /**
   * stores settled charges, their ledger rows, balances, debts, key spend, usage logs and daily rollups in one
   * transaction, skipping rows already stored (a retried batch writes nothing twice); returns, for every user of
   * the batch, the stored balance and debt after it
   */
  writeSettlementBatch(batch: SettlementBatch): Promise<SettledBalance[]>;
  /** a user's stored balance, debt and sequence, or undefined */
  readStoredBalance(userId: string): Promise<StoredBalance | undefined>;
  /** The stored balances of the given users (unknown ids are left out), for the shared wallet's reconciliation. */
  readStoredBalances(userIds: readonly string[]): Promise<StoredBalance[]>;
  /** users whose balance or debt differs from the sum of their ledger, or is negative */
  findBalanceMismatches(): Promise<BalanceMismatch[]>;
  /** top-up orders whose ledger entries do not add up to their credit, bonus and reversals */
  findOrderLedgerMismatches(): Promise<OrderLedgerMismatch[]>;
  readBalance(userId: string): Promise<number | undefined>;
  /** newest first; `before` is a cursor from the previous page */
  listLedgerEntries(
    userId: string,
    options: { limit: number; before?: { createdAt: number; id: string } },
  ): Promise<LedgerEntryRecord[]>;

  readBillingRevision(): Promise<number>;
  loadBillingSnapshot(): Promise<BillingSnapshotRecords>;
  /** the keys changed since a revision when only key settings changed since, else undefined (see ApiKeyBillingChanges) */
  loadApiKeyBillingChanges?(sinceRevision: number): Promise<ApiKeyBillingChanges | undefined>;

  listModelPrices(): Promise<ModelPrice[]>;
  setModelPrice(price: ModelPrice): Promise<void>;
  deleteModelPrice(modelId: string): Promise<void>;
  setGroupPriceRatio(groupId: string, priceRatioMillionths: number): Promise<void>;

  setApiKeyBilling(apiKeyId: string, settings: Omit<ApiKeyBillingRecord, 'apiKeyId' | 'spent'>): Promise<void>;
  setUserLimits(userId: string, limits: RequestLimits): Promise<void>;
  findUserById(userId: string): Promise<UserRecord | undefined>;

  listUsageLogs(filter: UsageLogFilter): Promise<UsageLogRecord[]>;
  listUsageSummaries(filter: UsageSummaryFilter): Promise<UsageSummaryRecord[]>;
  /** hourly rollups (written with the usage logs) in [from, to), oldest hour first */
  listHourlyUsage(filter: HourlyUsageFilter): Promise<HourlyUsageRecord[]>;
  /** requests refused before any upstream call, per minute, key, model, status and code, in [from, to), oldest first */
  listRefusedRequestCounts(filter: RefusedRequestCountFilter): Promise<RefusedRequestCount[]>;
  /** key id -> Unix milliseconds of its newest written request, for the keys used at least once (one user's, or all) */
  listApiKeyLastUsedTimes(filter?: { userId?: string }): Promise<Map<string, number>>;
  /**
   * deletes usage logs, refused-request counts and hourly rollups (not daily rollups) from before the given Unix
   * milliseconds, in batches run back to back; returns how many logs (the running gateway sweeps with pauses instead:
   * see sweepExpiredRows)
   */
  deleteUsageLogsBefore(time: number): Promise<number>;
  /** one retention batch: deletes at most `batch.limit` of the oldest rows of one usage table; returns how many */
  deleteOldestRows(batch: OldestRowsBatch & { table: UsageRetainedTable }): Promise<number>;

  /** `expiresAt` (Unix ms) defaults to 90 days from now; SignInStore lists, finds and revokes admin tokens */
  createAdminToken(token: { tokenHash: string; name: string; expiresAt?: number }): Promise<void>;
}
