import type { RequestPricingRecord as RequestPricing } from './price-records.js';
import type { ModelPriceRecord as ModelPrice } from './price-records.js';

/**
 * Kinds of ledger entry. Requests only ever write `settlement` rows: holds live in memory (docs/BILLING.md);
 * `debt-repayment` pays the debt from the balance when both are above zero; `debt-from-shortfall` is the opposite
 * move, the floor under every balance: a charge the stored balance could not cover becomes debt (amount and debt
 * change both +shortfall), so no write leaves a balance below zero.
 */
export type LedgerKind =
  | 'top-up'
  | 'bonus'
  | 'hold'
  | 'settlement'
  | 'refund'
  | 'adjustment'
  | 'redemption'
  | 'debt-repayment'
  | 'debt-from-shortfall'
  | 'topup-reversal';

/** One append-only change of a user's balance. */
export interface LedgerEntryRecord {
  id: string;
  userId: string;
  kind: LedgerKind;
  /** signed micro-units: credits positive, charges negative */
  amount: number;
  /** signed micro-units added to the debt: the uncovered part of a settlement positive, a repayment negative */
  debtChange: number;
  description: string;
  /** request id, payment event id or who made the change, or null */
  reference: string | null;
  /** Unix milliseconds */
  createdAt: number;
}

/** A credit or debit written synchronously by an admin, a payment or the CLI. */
export interface NewBalanceChange {
  userId: string;
  kind: Exclude<LedgerKind, 'hold' | 'settlement' | 'debt-repayment' | 'debt-from-shortfall' | 'topup-reversal'>;
  /** signed micro-units; the resulting balance may not go below zero */
  amount: number;
  description: string;
  reference?: string | null;
}

/** A credit or debit as written: the entry, the debt repayment it paid (credits to users in debt), the new state. */
export interface BalanceChangeResult {
  entry: LedgerEntryRecord;
  /** the `debt-repayment` entry written with a credit to a user in debt, else undefined */
  repayment: LedgerEntryRecord | undefined;
  /** micro-units after the change and any repayment */
  balance: number;
  /** micro-units still owed */
  debt: number;
  /** `users.balance_sequence` after the write */
  sequence: number;
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
  /** input tokens written to the vendor's prompt cache at every TTL (part of promptTokens) */
  cacheWriteTokens: number;
  /** of cacheWriteTokens, those written with a 1-hour TTL, priced at the 1-hour write price (absent: none) */
  cacheWriteOneHourTokens?: number;
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
  /** the request's `x-request-id`, as the client received it; null for requests logged before it was kept */
  requestId: string | null;
  /** the prices, ratio and other components the cost was computed from; null for refused requests and rows logged before migration 0013 */
  pricing: RequestPricing | null;
}

/** The charge of one settled request, written as one `settlement` ledger row. */
export interface SettledCharge {
  /** the ledger row's id, derived from the request's id so a retried batch cannot write it twice */
  id: string;
  userId: string;
  apiKeyId: string;
  /** micro-units taken from the balance (the ledger amount is its negative) */
  amount: number;
  /** micro-units of the cost the balance could not cover, added to the user's debt */
  debt: number;
  requestId: string;
  /** Unix milliseconds */
  createdAt: number;
}

/**
 * What the batch writer stores in one transaction: settled charges (ledger + balances + debts + key spend) and
 * usage logs. Idempotent per row: rows whose id is already stored are skipped with everything they would change.
 */
export interface SettlementBatch {
  /** charges of settled requests; each becomes a `settlement` ledger row */
  charges: SettledCharge[];
  usageLogs: UsageLogRecord[];
  /**
   * refused requests, counted per minute, key, model, status and error code: each adds its count to its
   * `refused_request_counts` row and to the rollups' request and error counts (not idempotent: a batch retried after
   * a commit that reported an error may count its refusals twice; refusals are not money)
   */
  refusedCounts?: RefusedRequestCount[];
}

/** Requests refused before any upstream call, counted per UTC minute, user, key, model, status and error code. */
export interface RefusedRequestCount {
  /** Unix milliseconds of the start of the UTC minute */
  minute: number;
  userId: string;
  apiKeyId: string;
  model: string;
  /** HTTP status the client received */
  status: number;
  errorCode: string;
  count: number;
}

/** Filters of a refused-request count query; minutes are Unix milliseconds, the range is [from, to). */
export interface RefusedRequestCountFilter {
  userId?: string;
  apiKeyId?: string;
  from: number;
  to: number;
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
  /** micro-units owed */
  debt: number;
  /** `users.balance_sequence` after the write: higher means newer */
  sequence: number;
}

/** What a settlement batch changed for one user. */
export interface SettledBalance extends StoredBalance {
  /** micro-units of the batch's charges to the user, now durable (written now or by an earlier attempt) */
  charged: number;
  /** micro-units of the batch's debt of the user, now durable */
  debtAdded: number;
  /**
   * micro-units by which this write lowered both the balance and the debt: positive when the balance paid debt
   * (`debt-repayment`), negative when a charge the stored balance could not cover became debt (`debt-from-shortfall`:
   * both went up), 0 when neither happened. Memory follows with `balance -= repaid; debt -= repaid`.
   */
  repaid: number;
}

/** A user's money and limits as the running gateway keeps them in memory. */
export interface UserBillingRecord {
  userId: string;
  /** micro-units */
  balance: number;
  /** micro-units owed */
  debt: number;
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

/** A balance or debt that differs from the sum of its ledger, or is negative. */
export interface BalanceMismatch {
  userId: string;
  email: string;
  /** micro-units stored in users.balance */
  balance: number;
  /** micro-units summed over the ledger */
  ledgerSum: number;
  /** micro-units stored in users.debt */
  debt: number;
  /** micro-units of `debt_change` summed over the ledger */
  ledgerDebtSum: number;
}

/** Filters of a usage log query; times are Unix milliseconds, the range is [from, to). */
export interface UsageLogFilter {
  userId?: string;
  apiKeyId?: string;
  model?: string;
  status?: number;
  /** only statuses of this class: 2 for 2xx, 4 for 4xx, 5 for 5xx */
  statusClass?: number;
  /** the usage log's `endpoint`, e.g. `chat.completions` */
  endpoint?: string;
  /** the request's `x-request-id` */
  requestId?: string;
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

/** One row of an hourly usage summary: sums for a UTC hour, key and model. */
export interface HourlyUsageRecord {
  /** Unix milliseconds of the start of the UTC hour */
  hour: number;
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

/** Filters of an hourly usage query; hours are Unix milliseconds, the range is [from, to). */
export interface HourlyUsageFilter {
  userId?: string;
  apiKeyId?: string;
  model?: string;
  from: number;
  to: number;
}
