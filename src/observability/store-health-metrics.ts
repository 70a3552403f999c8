import { Gauge, type Registry } from 'prom-client';
import type { StoreReadinessProbe } from './store-readiness-probe.js';

/**
 * Registers `gateway_store_up{store}` (1 when the store answered its last check, else 0) and
 * `gateway_store_last_check_age_seconds{store}`, from the readiness probe `/readyz` uses. A scrape never waits on a
 * store: it reads the last report and starts a new check in the background when that one is stale (only the first
 * scrape, before any check, waits for one, bounded by the probe's check timeout). `clock` gives Unix milliseconds.
 */
export function registerStoreHealthMetrics(
  registry: Registry,
  probe: StoreReadinessProbe,
  clock: () => number = Date.now,
): void {
  const latest = async (): Promise<{ at: number; stores: Record<string, 'up' | 'down'> }> => {
    const last = probe.lastReport();
    if (last === undefined) {
      const report = await probe.report();
      return { at: probe.lastReport()?.at ?? clock(), stores: report.stores };
    }
    // Refreshes in the background when stale; the probe shares one check among all askers.
    void probe.report();
    return { at: last.at, stores: last.report.stores };
  };
  let pending: ReturnType<typeof latest> | undefined;
  // Both gauges of one scrape read one report.
  const read = (): ReturnType<typeof latest> => {
    pending ??= latest().finally(() => {
      pending = undefined;
    });
    return pending;
  };
  new Gauge({
    name: 'gateway_store_up',
    help: 'Whether a store this node needs answered its last check (1) or not (0)',
    labelNames: ['store'],
    registers: [registry],
    async collect() {
      const { stores } = await read();
      for (const [store, state] of Object.entries(stores)) this.set({ store }, state === 'up' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'gateway_store_last_check_age_seconds',
    help: 'Seconds since the store checks behind gateway_store_up started',
    labelNames: ['store'],
    registers: [registry],
    async collect() {
      const { at, stores } = await read();
      const age = Math.max(0, clock() - at) / 1000;
      for (const store of Object.keys(stores)) this.set({ store }, age);
    },
  });
}
