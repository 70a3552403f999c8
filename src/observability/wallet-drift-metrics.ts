import { Counter, Gauge, type Registry } from 'prom-client';

/** What the wallet gauges read: the corrections of the shared wallet's last reconciliation on this node. */
export interface WalletDriftSource {
  readonly lastDrift:
    | { readonly nodeFields: number; readonly durable: number; readonly recreated: number; readonly at: number }
    | undefined;
  /** micro-units corrected by every reconciliation since the node started */
  readonly correctedMicroUnits: number;
}

/**
 * Registers `gateway_wallet_drift_micro_units{kind}` (how far Redis's copy was from this node's books, `node_fields`,
 * and from the database, `durable`, when last reconciled; both corrected then), `gateway_wallet_recreated` (wallets
 * Redis had lost, created again from the database) and `gateway_wallet_corrected_micro_units_total`. Zero in steady state; a value that stays above zero means Redis
 * keeps losing writes (an outage, a freeze, eviction under maxmemory).
 */
export function registerWalletDriftMetrics(registry: Registry, source: WalletDriftSource): void {
  new Gauge({
    name: 'gateway_wallet_drift_micro_units',
    help: 'Micro-units the shared Redis wallet differed from this node’s books (node_fields) and the database (durable) at the last reconciliation',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.set({ kind: 'node_fields' }, source.lastDrift?.nodeFields ?? 0);
      this.set({ kind: 'durable' }, source.lastDrift?.durable ?? 0);
    },
  });
  new Gauge({
    name: 'gateway_wallet_recreated',
    help: 'Wallets Redis had lost, created again from the database at the last reconciliation',
    registers: [registry],
    collect() {
      this.set(source.lastDrift?.recreated ?? 0);
    },
  });
  new Counter({
    name: 'gateway_wallet_corrected_micro_units_total',
    help: 'Micro-units of drift between the shared Redis wallet and the books or the database corrected since start',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(source.correctedMicroUnits);
    },
  });
}
