import type { Logger } from 'pino';
import type {
  RefusedRequestCount,
  SettledBalance,
  SettledCharge,
  SettlementBatch,
  UsageLogRecord,
} from '../storage/billing-records.js';
import type { BillingStore } from '../storage/billing-store.js';
import { StoreUnavailableError } from '../storage/store-unavailable-error.js';
import { createRateLimitedLog, type RateLimitedLog } from './rate-limited-log.js';
import { RefusedRequestCounter, type RefusedRequest } from './refused-request-counter.js';
import { SpendTally } from './spend-tally.js';

/** A settled charge waiting to be written. */
export type PendingCharge = SettledCharge;

/** What a settled request took: from the balance, and as debt where the balance could not cover it (micro-units). */
export interface RequestCharge {
  amount: number;
  debt: number;
}

/**
 * One request's rows waiting to be written: its usage log and what it charged. The charge is kept as two numbers, and
 * its ledger row is made from the log when the batch is written: a queued row lives until its batch (up to 256
 * requests), long enough to be copied by young-generation collections and promoted, so it holds as few objects as it
 * can.
 */
interface QueuedRow {
  usageLog: UsageLogRecord;
  /** micro-units taken from the balance; 0 with `chargeDebt` 0 when the request cost nothing */
  chargeAmount: number;
  /** micro-units added to the debt */
  chargeDebt: number;
  /** failed writes of a batch holding this row since it was queued */
  failures: number;
  /** Unix milliseconds before which the row is not retried (backoff after failing on its own) */
  retryAt: number;
}

/** The charge of a queued row as its ledger row records it; undefined when it cost nothing. */
function chargeOf(row: QueuedRow): PendingCharge | undefined {
  if (row.chargeAmount <= 0 && row.chargeDebt <= 0) return undefined;
  const { usageLog } = row;
  return {
    // Derived from the request's id, so a retried batch can never write it twice.
    id: ledgerIdOf(usageLog.id),
    userId: usageLog.userId,
    apiKeyId: usageLog.apiKeyId,
    amount: row.chargeAmount,
    debt: row.chargeDebt,
    requestId: usageLog.id,
    // When the request finished: it arrived at createdAt and took latencyMs.
    createdAt: usageLog.createdAt + usageLog.latencyMs,
  };
}

/** Unix milliseconds when a queued row's request finished (it arrived at createdAt and took latencyMs). */
function settledAtOf(row: QueuedRow): number {
  return row.usageLog.createdAt + row.usageLog.latencyMs;
}

/** The id of a settled request's ledger row: its usage log's id with the `led_` prefix (`use_…` → `led_…`). */
export function ledgerIdOf(usageLogId: string): string {
  return `led_${usageLogId.slice(usageLogId.indexOf('_') + 1)}`;
}

/**
 * Rows written in one transaction at most; a longer queue is written in several, and a queue this long is written at
 * once instead of at the next tick. SQLite's worker thread holds a whole transaction's rows while it writes them: a
 * 250 ms flush under load (1,750 rows at 7,000 req/s; the cap was 5,000) outlived its young generation and grew its
 * heap, and 256 keep peak RSS 4 to 8 MiB lower.
 */
export const rowsPerTransaction = 256;
/** Write attempts per flush at most, so splitting a failing batch can never stall the writer. */
const attemptsPerFlush = 64;
/**
 * Failed attempts before the first success after which a flush gives up (the database itself is failing):
 * enough to isolate a row at fault in a full transaction (about log2(rowsPerTransaction) failing halves).
 */
const failuresBeforeGivingUp = 16;
/** First backoff of a row that failed on its own, doubled at each further failure up to `maximumRetryDelayMs`. */
const firstRetryDelayMs = 1_000;
const maximumRetryDelayMs = 60_000;
/** Pause after a flush that wrote nothing (the database is down), doubled up to `maximumPauseMs`. */
const firstPauseMs = 500;
const maximumPauseMs = 5_000;
/** Groups of refused requests (minute, key, model, status, code) counted in memory at most, between two flushes. */
const defaultRefusedGroupLimit = 10_000;

/** Charges not yet durable, in micro-units. */
export interface PendingAmounts {
  /** taken from each user's balance */
  byUser: ReadonlyMap<string, number>;
  /** spent by each key (the part left as debt included) */
  byKey: ReadonlyMap<string, number>;
  /** added to each user's debt */
  debtByUser: ReadonlyMap<string, number>;
}

/** How the batch writer is built. */
export interface SettlementBatchWriterOptions {
  store: BillingStore;
  intervalMs: number;
  logger: Logger;
  /** rows (one per request) the queue may hold before admission refuses new requests; 0 for no limit */
  queueLimit?: number;
  /** Unix milliseconds; injected so backoff is testable */
  clock?: () => number;
  /** called after each committed batch with the users' new stored balances (to update memory and shared copies) */
  onWritten?: (settled: SettledBalance[], charges: readonly PendingCharge[]) => Promise<void>;
  /** groups of refused requests counted in memory at most (default 10,000); refusals past it are left out */
  refusedGroupLimit?: number;
}

/**
 * Collects settled charges and usage logs in memory and writes them every `intervalMs` (sooner when they fill a
 * transaction), each transaction with ledger rows, balances, debts, key spend, logs and rollups together, so a hard
 * crash loses at most the unwritten batch, and loses its ledger rows and balance changes together. Writes are
 * idempotent per row (the store skips rows already stored), so a batch is simply retried after any error. A batch
 * that fails twice is split in halves until the rows at fault are alone; those are logged and retried with backoff,
 * never dropped, and never hold back the other rows.
 */
export class SettlementBatchWriter {
  /** what every queued row cost, per endpoint and model, since start (read by `/metrics`) */
  readonly spend = new SpendTally();
  private queue: QueuedRow[] = [];
  /** rows taken off the queue by the flush under way and neither written nor put back yet */
  private rowsInFlush = 0;
  /** Unix milliseconds when the oldest row of the flush under way was settled; undefined between flushes */
  private oldestInFlushAt: number | undefined;
  private readonly pendingByUser = new Map<string, number>();
  private readonly pendingByKey = new Map<string, number>();
  private readonly pendingDebtByUser = new Map<string, number>();
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private pausedUntil = 0;
  private failedFlushes = 0;
  private readonly clock: () => number;
  private readonly logUnavailable: RateLimitedLog;
  private readonly logBookkeepingFailure: RateLimitedLog;
  private readonly refusals: RefusedRequestCounter;

  constructor(private readonly options: SettlementBatchWriterOptions) {
    this.clock = options.clock ?? Date.now;
    this.refusals = new RefusedRequestCounter(options.refusedGroupLimit ?? defaultRefusedGroupLimit);
    this.logUnavailable = createRateLimitedLog(options.logger, 'warn');
    this.logBookkeepingFailure = createRateLimitedLog(options.logger, 'warn');
  }

  /** Writes queued rows every `intervalMs`, and at once whenever they fill a transaction. */
  start(): void {
    this.timer = setInterval(
      () =>
        void this.flush().catch((error: unknown) =>
          this.options.logger.error({ err: error }, 'a settlement flush failed; its rows stay queued'),
        ),
      this.options.intervalMs,
    );
    this.timer.unref();
  }

  /**
   * Queues a settled request: always accepted (its money was already taken in memory), even past the limit. `charge` is
   * what it took from the balance and left as debt; its ledger row gets the log's user, key and finish time.
   */
  enqueue(usageLog: UsageLogRecord, charge: RequestCharge | undefined): void {
    const chargeAmount = charge && charge.amount > 0 ? charge.amount : 0;
    const chargeDebt = charge && charge.debt > 0 ? charge.debt : 0;
    this.addPending(usageLog, chargeAmount, chargeDebt, 1);
    this.spend.add(usageLog.endpoint, usageLog.model, usageLog.cost, chargeDebt);
    this.queue.push({ usageLog, chargeAmount, chargeDebt, failures: 0, retryAt: 0 });
    // Under load the rows are written as soon as they fill a transaction: they then die young in both threads.
    if (this.timer !== undefined && this.queue.length === rowsPerTransaction)
      void this.flush().catch((error: unknown) =>
        this.options.logger.error({ err: error }, 'a settlement flush failed; its rows stay queued'),
      );
  }

  /**
   * Counts a request refused before any upstream call: written with the next batch as one row per minute, key, model,
   * status and error code (and added to the rollups' request and error counts), never one usage row per refusal.
   * False when it was left out: the queue is full (refusals must not grow it while the database lags) or the counter
   * holds its limit of groups.
   */
  countRefusal(refusal: RefusedRequest): boolean {
    if (this.isFull()) return false;
    return this.refusals.count(refusal);
  }

  /** Groups of refused requests counted and not yet written. */
  get refusedGroups(): number {
    return this.refusals.size;
  }

  /** Rows waiting to be written (one per request). */
  get queuedRows(): number {
    return this.queue.length;
  }

  /** Rows not yet durable: those waiting and those of the flush under way (one per request). */
  get unwrittenRows(): number {
    return this.queue.length + this.rowsInFlush;
  }

  /**
   * Unix milliseconds when the oldest row not yet durable was settled (its request finished), or undefined when none
   * waits; read at scrape time (a pass over the queue, which the queue limit bounds).
   */
  oldestUnwrittenAt(): number | undefined {
    let oldest = this.rowsInFlush > 0 ? this.oldestInFlushAt : undefined;
    for (const row of this.queue) {
      const settledAt = settledAtOf(row);
      if (oldest === undefined || settledAt < oldest) oldest = settledAt;
    }
    return oldest;
  }

  /** True when the queue holds `queueLimit` rows or more: new requests must wait until the database catches up. */
  isFull(): boolean {
    const limit = this.options.queueLimit ?? 0;
    return limit > 0 && this.queue.length >= limit;
  }

  /** Seconds a client should wait before retrying while the queue is full: until the next write attempt, at least 1. */
  retryAfterSeconds(): number {
    const wait = Math.max(this.pausedUntil - this.clock(), this.options.intervalMs);
    return Math.max(1, Math.ceil(wait / 1000));
  }

  /** Charges and debts not yet durable, per user and per key, in micro-units. */
  pendingAmounts(): PendingAmounts {
    return { byUser: this.pendingByUser, byKey: this.pendingByKey, debtByUser: this.pendingDebtByUser };
  }

  /** Writes whatever is queued and due; runs after any flush or exclusive work already in progress. */
  flush(): Promise<void> {
    return this.runExclusive(() => this.writeQueued());
  }

  /** Runs work while no batch is being written, so a reload sees the database and the queue consistently. */
  runExclusive<Result>(work: () => Promise<Result>): Promise<Result> {
    const result = this.chain.then(work);
    this.chain = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Stops the timer and writes everything left; rows that still cannot be written are logged in full. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.runExclusive(async () => {
      // Shutdown does not wait for backoff: every row gets its last chances now.
      for (let round = 0; round < 3 && (this.queue.length > 0 || this.refusals.size > 0); round++) {
        this.pausedUntil = 0;
        for (const row of this.queue) row.retryAt = 0;
        await this.writeQueued();
      }
      for (const row of this.queue) {
        this.options.logger.error(
          { charge: chargeOf(row), usageLog: row.usageLog },
          'a settled request could not be written before shutdown; its charge and usage log are lost with this process',
        );
      }
      if (this.refusals.size > 0)
        this.options.logger.warn(
          { groups: this.refusals.drain() },
          'counts of refused requests could not be written before shutdown',
        );
    });
  }

  private async writeQueued(): Promise<void> {
    const now = this.clock();
    if ((this.queue.length === 0 && this.refusals.size === 0) || now < this.pausedUntil) return;
    const due = this.queue.filter((row) => row.retryAt <= now);
    if (due.length === 0 && this.refusals.size === 0) return;
    this.queue = this.queue.filter((row) => row.retryAt > now);
    this.rowsInFlush = due.length;
    this.oldestInFlushAt = due.reduce<number | undefined>(
      (oldest, row) => (oldest === undefined || settledAtOf(row) < oldest ? settledAtOf(row) : oldest),
      undefined,
    );
    try {
      await this.writeDue(due, now, this.refusals.drain());
    } finally {
      this.rowsInFlush = 0;
      this.oldestInFlushAt = undefined;
    }
  }

  /**
   * Writes rows taken off the queue, in transactions of `rowsPerTransaction`; what fails goes back to the queue. The
   * refused-request counts ride with the first transaction (alone when no row is due) and go back to the counter if
   * it fails.
   */
  private async writeDue(due: QueuedRow[], now: number, refusals: RefusedRequestCount[]): Promise<void> {
    const stack: QueuedRow[][] = [];
    for (let start = due.length; start > 0; start -= rowsPerTransaction)
      stack.push(due.slice(Math.max(0, start - rowsPerTransaction), start));
    if (stack.length === 0 && refusals.length > 0) stack.push([]);
    let unwrittenRefusals = refusals;
    let attempts = 0;
    let wroteAny = false;
    let failedAny = false;
    while (stack.length > 0) {
      const batch = stack.pop()!;
      if (attempts >= attemptsPerFlush || (!wroteAny && attempts >= failuresBeforeGivingUp)) {
        this.requeue(batch);
        continue;
      }
      attempts++;
      const carried = unwrittenRefusals;
      unwrittenRefusals = [];
      const error = await this.write(batch, carried);
      if (error === undefined) {
        this.rowsInFlush -= batch.length;
        wroteAny = true;
        continue;
      }
      failedAny = true;
      this.refusals.restore(carried);
      if (error instanceof StoreUnavailableError) {
        // The database is down, not a row at fault: keep every row as it is (no split, no row backoff) and pause;
        // the rows are written once it is back (a batch that committed unseen is skipped row by row then).
        this.logUnavailable(
          error.cause,
          `the database is unavailable; ${this.rowsInFlush} settled rows stay queued and are retried`,
        );
        // Later rows first, since each requeue goes to the front: the queue keeps its order.
        for (const waiting of stack.splice(0)) this.requeue(waiting);
        this.requeue(batch);
        break;
      }
      this.handleFailure(batch, error, stack, now);
    }
    this.refusals.restore(unwrittenRefusals);
    this.failedFlushes = failedAny && !wroteAny ? this.failedFlushes + 1 : 0;
    // Nothing could be written: the database itself is failing, so wait before hammering it again.
    if (this.failedFlushes > 0)
      this.pausedUntil = now + Math.min(maximumPauseMs, firstPauseMs * 2 ** (this.failedFlushes - 1));
  }

  /** A failed batch: retried whole once (most errors are passing), then split until the failing rows are alone. */
  private handleFailure(batch: QueuedRow[], error: unknown, stack: QueuedRow[][], now: number): void {
    const failedBefore = batch.some((row) => row.failures > 0);
    if (!failedBefore || batch.length === 1) {
      for (const row of batch) {
        row.failures += 1;
        if (batch.length === 1 && row.failures > 1)
          row.retryAt = now + Math.min(maximumRetryDelayMs, firstRetryDelayMs * 2 ** (row.failures - 2));
      }
      if (batch.length === 1 && batch[0]!.failures > 1) {
        const [row] = batch;
        this.options.logger.error(
          {
            err: error,
            usageLogId: row!.usageLog.id,
            userId: row!.usageLog.userId,
            charge: chargeOf(row!),
            failures: row!.failures,
            retryAt: row!.retryAt,
          },
          'a settled request cannot be written; it stays queued and is retried with backoff',
        );
      } else {
        this.options.logger.warn({ err: error, rows: batch.length }, 'writing a settlement batch failed; will retry');
      }
      this.requeue(batch);
      return;
    }
    const middle = Math.ceil(batch.length / 2);
    stack.push(batch.slice(middle), batch.slice(0, middle));
  }

  /** Writes one batch; returns the error when it failed (the batch may still have been committed). */
  private async write(batch: QueuedRow[], refusedCounts: RefusedRequestCount[]): Promise<unknown> {
    const charges: PendingCharge[] = [];
    for (const row of batch) {
      const charge = chargeOf(row);
      if (charge) charges.push(charge);
    }
    const written: SettlementBatch = { charges, usageLogs: batch.map((row) => row.usageLog) };
    if (refusedCounts.length > 0) written.refusedCounts = refusedCounts;
    let settled: SettledBalance[];
    try {
      settled = await this.options.store.writeSettlementBatch(written);
    } catch (error) {
      return error ?? new Error('writing a settlement batch failed');
    }
    for (const row of batch) this.addPending(row.usageLog, row.chargeAmount, row.chargeDebt, -1);
    // Bounded by Redis's command timeout; on failure the shared copies heal at the next reload (the batch is durable).
    await this.options
      .onWritten?.(settled, charges)
      .catch((error: unknown) => this.logBookkeepingFailure(error, 'updating balances after a batch failed'));
    return undefined;
  }

  private requeue(rows: QueuedRow[]): void {
    this.rowsInFlush -= rows.length;
    this.queue = rows.concat(this.queue);
  }

  private addPending(usageLog: UsageLogRecord, amount: number, debt: number, sign: 1 | -1): void {
    if (amount === 0 && debt === 0) return;
    addTo(this.pendingByUser, usageLog.userId, sign * amount);
    addTo(this.pendingByKey, usageLog.apiKeyId, sign * (amount + debt));
    addTo(this.pendingDebtByUser, usageLog.userId, sign * debt);
  }
}

function addTo(sums: Map<string, number>, key: string, amount: number): void {
  const next = (sums.get(key) ?? 0) + amount;
  if (next === 0) sums.delete(key);
  else sums.set(key, next);
}
