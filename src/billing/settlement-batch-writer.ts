import type { Logger } from 'pino';
import type { SettledBalance, SettlementBatch, UsageLogRecord } from '../storage/billing-records.js';
import type { BillingStore } from '../storage/billing-store.js';

/** A settled charge waiting to be written. */
export type PendingCharge = SettlementBatch['charges'][number];

/**
 * Collects settled charges and usage logs in memory and writes them every `intervalMs` in one transaction
 * (ledger rows, balances, key spend, logs, rollups together), so a hard crash loses at most the unwritten
 * batch, and loses its ledger rows and balance changes together.
 */
export class SettlementBatchWriter {
  private charges: PendingCharge[] = [];
  private usageLogs: UsageLogRecord[] = [];
  private readonly pendingByUser = new Map<string, number>();
  private readonly pendingByKey = new Map<string, number>();
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      store: BillingStore;
      intervalMs: number;
      logger: Logger;
      /** called after each committed batch with the users' new stored balances (to update shared copies) */
      onWritten?: (settled: SettledBalance[]) => Promise<void>;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.intervalMs);
    this.timer.unref();
  }

  enqueue(charge: PendingCharge | undefined, usageLog: UsageLogRecord): void {
    if (charge && charge.amount > 0) {
      this.charges.push(charge);
      addTo(this.pendingByUser, charge.userId, charge.amount);
      addTo(this.pendingByKey, charge.apiKeyId, charge.amount);
    }
    this.usageLogs.push(usageLog);
  }

  /** Charges not yet durable, per user and per key, in micro-units. */
  pendingAmounts(): { byUser: ReadonlyMap<string, number>; byKey: ReadonlyMap<string, number> } {
    return { byUser: this.pendingByUser, byKey: this.pendingByKey };
  }

  /** Writes whatever is queued; runs after any flush or exclusive work already in progress. */
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

  /** Stops the timer and writes everything left; called on graceful shutdown. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
    if (this.charges.length > 0 || this.usageLogs.length > 0) await this.flush();
  }

  private async writeQueued(): Promise<void> {
    if (this.charges.length === 0 && this.usageLogs.length === 0) return;
    const charges = this.charges;
    const usageLogs = this.usageLogs;
    this.charges = [];
    this.usageLogs = [];
    let settled: SettledBalance[];
    try {
      settled = await this.options.store.writeSettlementBatch({ charges, usageLogs });
    } catch (error) {
      // Put the batch back in front so the next tick retries it; memory stays ahead of the database meanwhile.
      this.charges = charges.concat(this.charges);
      this.usageLogs = usageLogs.concat(this.usageLogs);
      this.options.logger.error({ err: error, charges: charges.length, usageLogs: usageLogs.length }, 'writing a settlement batch failed; will retry');
      return;
    }
    for (const charge of charges) {
      addTo(this.pendingByUser, charge.userId, -charge.amount);
      addTo(this.pendingByKey, charge.apiKeyId, -charge.amount);
    }
    await this.options.onWritten?.(settled).catch((error: unknown) => this.options.logger.warn({ err: error }, 'updating shared balances after a batch failed'));
  }
}

function addTo(sums: Map<string, number>, key: string, amount: number): void {
  const next = (sums.get(key) ?? 0) + amount;
  if (next === 0) sums.delete(key);
  else sums.set(key, next);
}
