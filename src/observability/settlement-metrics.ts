import { Gauge, type Registry } from 'prom-client';

/** What the settlement gauge reads: the batch writer's backlog. */
export interface SettlementBacklog {
  /** settled requests not yet written to the database, queued or in the batch being written (one row each) */
  readonly unwrittenRows: number;
}

/**
 * Registers `gateway_settlement_backlog_rows` on the app's registry, read from the batch writer at each scrape (no work
 * on the request path). While the database keeps up it stays within one flush interval's worth of requests; a value
 * that keeps growing means it does not, and once the queue reaches its limit new requests get 503 until it catches up
 * (BILLING.md). The benchmarks wait for it to reach 0, so the CPU of bookkeeping done after a run counts in that run.
 */
export function registerSettlementMetrics(registry: Registry, backlog: SettlementBacklog): Gauge {
  return new Gauge({
    name: 'gateway_settlement_backlog_rows',
    help: 'Settled requests not yet written to the database, queued or being written (one row each)',
    registers: [registry],
    collect() {
      this.set(backlog.unwrittenRows);
    },
  });
}
