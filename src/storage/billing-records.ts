import type { ModelPrice } from '../billing/model-price.js';

/** Kinds of ledger entry. Requests only ever write `settlement` rows: holds live in memory (docs/BILLING.md). */
export type LedgerKind = 'top-up' | 'bonus' | 'hold' | 'settlement' | 'refund' | 'adjustment' | 'redemption';

/** One append-only change of a user's balance. */
export interface LedgerEntryRecord {
  id: string;
  userId: string;
  kind: LedgerKind;
  /** signed micro-units: credits positive, charges negative */
  amount: number;
  description: string;
  /** request id, payment event id or who made the change, or null */
  reference: string | null;
  /** Unix milliseconds */
  createdAt: number;
}

/** A credit or debit written synchronously by an admin, a payment or the CLI. */
export interface NewBalanceChange {
  userId: string;
  kind: Exclude<LedgerKind, 'hold' | 'settlement'>;
  /** signed micro-units; the resulting balance may not go below zero */
  amount: number;
  description: string;
  reference?: string | null;
}

/** One /v1 request as the usage log keeps it. */
export interface UsageLogRecord {
  id: string;
  /** Unix milliseconds when the request arrived */
  createdAt: number;
  userId: string;
  apiKeyId: string;
  model: string;
  channelId: string | null;
  endpoint: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** input tokens written to the vendor's prompt cache (part of promptTokens), priced at the cache-write price */
  cacheWriteTokens: number;
  /** micro-units charged */
  cost: number;
  /** HTTP status the client received */
  status: number;
  errorCode: string | null;
  /** milliseconds from arrival to the end of the response */
  latencyMs: number;
  /** milliseconds from arrival to the first byte, or null */
  firstTokenMs: number | null;
  streamed: boolean;
  clientIp: string;
}

/** What the batch writer stores in one transaction: settled charges (ledger + balances + key spend) and usage logs. */
export interface SettlementBatch {
  /** charges of settled requests; each becomes a `settlement` ledger row with a negative amount */
  charges: Array<{ id: string; userId: string; apiKeyId: string; amount: number; requestId: string; createdAt: number }>;
  usageLogs: UsageLogRecord[];
}

/** Per-request limits of a user or key; null means the configured default. */
export interface RequestLimits {
  /** requests per minute */
  requestsPerMinute: number | null;
  /** prompt plus completion tokens per minute */
  tokensPerMinute: number | null;
  /** requests in flight at once */
  maxConcurrentRequests: number | null;
}

/** A user's stored balance right after a write, with its sequence number. */
export interface StoredBalance {
  userId: string;
  /** micro-units */
  balance: number;
  /** `users.balance_sequence` after the write: higher means newer */
  sequence: number;
}

/** What a settlement batch changed for one user. */
export interface SettledBalance extends StoredBalance {
  /** micro-units this batch charged the user */
  charged: number;
}

/** A user's money and limits as the running gateway keeps them in memory. */
export interface UserBillingRecord {
  userId: string;
  /** micro-units */
  balance: number;
  /** `users.balance_sequence` when read */
  sequence: number;
  limits: RequestLimits;
}

/** A key's spending cap, IP allow-list and limits. */
export interface ApiKeyBillingRecord {
  apiKeyId: string;
  /** micro-units, or null for no cap */
  spendingCap: number | null;
  /** micro-units settled against the key so far */
  spent: number;
  /** IP addresses or CIDR ranges; empty means any address */
  allowedIps: string[];
  limits: RequestLimits;
}

/** Everything the in-memory billing state is built from, read in one go. */
export interface BillingSnapshotRecords {
  revision: number;
  users: UserBillingRecord[];
  apiKeys: ApiKeyBillingRecord[];
  /** operator prices; models absent here use the built-in defaults */
  prices: ModelPrice[];
  /** group id -> price ratio in millionths */
  groupPriceRatios: Array<{ groupId: string; priceRatioMillionths: number }>;
}

/** A balance that differs from the sum of its ledger. */
export interface BalanceMismatch {
  userId: string;
  email: string;
  /** micro-units stored in users.balance */
  balance: number;
  /** micro-units summed over the ledger */
  ledgerSum: number;
}

/** Filters of a usage log query; times are Unix milliseconds, the range is [from, to). */
export interface UsageLogFilter {
  userId?: string;
  apiKeyId?: string;
  model?: string;
  status?: number;
  from?: number;
  to?: number;
  /** rows to return, at most 500 */
  limit: number;
  /** a cursor from the previous page: return rows older than this `createdAt`/`id` pair */
  before?: { createdAt: number; id: string };
}

/** One row of a usage summary: sums for a UTC day and model (and key when asked). */
export interface UsageSummaryRecord {
  day: string;
  userId: string;
  apiKeyId: string;
  model: string;
  requestCount: number;
  errorCount: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** micro-units */
  cost: number;
}

/** Filters of a usage summary query; days are `YYYY-MM-DD`, inclusive. */
export interface UsageSummaryFilter {
  userId?: string;
  apiKeyId?: string;
  model?: string;
  fromDay?: string;
  toDay?: string;
}
