import { Counter, Gauge, type Registry } from 'prom-client';

/** Micro-units settled for one endpoint and model since the process started. */
export interface SpendEntry {
  /** the usage log's endpoint, e.g. `chat.completions` */
  readonly endpoint: string;
  /** the public model id */
  readonly model: string;
  /** micro-units the requests cost (what the balance covered plus what became debt) */
  readonly microUnits: number;
}

/** What the billing gauges and counters read at each scrape; every number is this node's view, in micro-units. */
export interface BillingMetricsSource {
  /** spend settled on this node since it started, per endpoint and model */
  spend(): Iterable<SpendEntry>;
  /** the part of that spend the balance could not cover, recorded as debt */
  debtRecordedMicroUnits(): number;
  /** holds of requests in flight on this node: how many, and the micro-units they hold */
  holds(): { readonly open: number; readonly heldMicroUnits: number };
  /** debt owed by the users this node knows (stored debt plus this node's unwritten debt), and how many owe it */
  outstandingDebt(): { readonly microUnits: number; readonly users: number };
}

/**
 * Registers the money instruments on the app's registry, each filled from `source` at scrape time (no work on the
 * request path): `gateway_spend_micro_units_total{endpoint,model}`, `gateway_debt_recorded_micro_units_total`,
 * `gateway_holds_open`, `gateway_holds_micro_units`, `gateway_debt_outstanding_micro_units` and `gateway_users_in_debt`.
 */
export function registerBillingMetrics(registry: Registry, source: BillingMetricsSource): void {
  new Counter({
    name: 'gateway_spend_micro_units_total',
    help: 'Micro-units charged for settled requests and video tasks (balance plus debt), by endpoint and model',
    labelNames: ['endpoint', 'model'],
    registers: [registry],
    collect() {
      this.reset();
      for (const entry of source.spend()) this.inc({ endpoint: entry.endpoint, model: entry.model }, entry.microUnits);
    },
  });
  new Counter({
    name: 'gateway_debt_recorded_micro_units_total',
    help: 'Micro-units of spend the balance could not cover, recorded as debt',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(source.debtRecordedMicroUnits());
    },
  });
  new Gauge({
    name: 'gateway_holds_open',
    help: 'Holds of requests in flight on this node',
    registers: [registry],
    collect() {
      this.set(source.holds().open);
    },
  });
  new Gauge({
    name: 'gateway_holds_micro_units',
    help: 'Micro-units held by requests in flight on this node (their worst-case cost)',
    registers: [registry],
    collect() {
      this.set(source.holds().heldMicroUnits);
    },
  });
  new Gauge({
    name: 'gateway_debt_outstanding_micro_units',
    help: 'Micro-units of debt owed by users, as this node knows them',
    registers: [registry],
    collect() {
      this.set(source.outstandingDebt().microUnits);
    },
  });
  new Gauge({
    name: 'gateway_users_in_debt',
    help: 'Users who owe a debt, as this node knows them (their requests are refused until they top up)',
    registers: [registry],
    collect() {
      this.set(source.outstandingDebt().users);
    },
  });
}
