import { Gauge, type Registry } from 'prom-client';

/** What the settlement gauge reads: the batch writer's backlog. */
export interface SettlementBacklog {
  /** settled requests not yet written to the database, queued or in the batch being written (one row each) */
  readonly unwrittenRows: number;
  /** Unix milliseconds when the oldest row not yet written was settled; undefined when every row is written */
  oldestUnwrittenAt(): number | undefined;
}

/**
 * Registers `gateway_settlement_backlog_rows` on the app's registry, read from the batch writer at each scrape (no work
 * on the request path). While the database keeps up it stays within one flush interval's worth of requests; a value
 * that keeps growing means it does not, and once the queue reaches its limit new requests get 503 until it catches up
 * (BILLING.md). `gateway_settlement_lag_seconds` is the age of the oldest such row. The benchmarks wait for it to reach 0, so the CPU of bookkeeping done after a run counts in that run.
 */
export function registerSettlementMetrics(
  registry: Registry,
  backlog: SettlementBacklog,
  clock: () => number = Date.now,
): Gauge {
  // How far the database is behind: 0 while the queue is empty, a flush interval or so while it keeps up.
  new Gauge({
    name: 'gateway_settlement_lag_seconds',
    help: 'Age of the oldest settled request not yet written to the database, in seconds (0 when none waits)',
    registers: [registry],
    collect() {
      const oldest = backlog.oldestUnwrittenAt();
      this.set(oldest === undefined ? 0 : Math.max(0, clock() - oldest) / 1000);
    },
  });
  return new Gauge({
    name: 'gateway_settlement_backlog_rows',
    help: 'Settled requests not yet written to the database, queued or being written (one row each)',
    registers: [registry],
    collect() {
      this.set(backlog.unwrittenRows);
    },
  });
}
