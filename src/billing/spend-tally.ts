import type { SpendEntry } from '../observability/billing-metrics.js';

/**
 * Micro-units settled on this node since it started, per endpoint and model, and the part that became debt: plain
 * numbers added once per settled request (two map lookups), read by `/metrics` at each scrape. Endpoints and models
 * are the gateway's own (usage log endpoints, catalog ids), so the number of entries stays small.
 */
export class SpendTally {
  private readonly byEndpoint = new Map<string, Map<string, number>>();
  private debt = 0;

  /** Adds a settled cost (`microUnits`, of which `debtMicroUnits` the balance could not cover). */
  add(endpoint: string, model: string, microUnits: number, debtMicroUnits: number): void {
    if (microUnits > 0) {
      let byModel = this.byEndpoint.get(endpoint);
      if (byModel === undefined) {
        byModel = new Map();
        this.byEndpoint.set(endpoint, byModel);
      }
      byModel.set(model, (byModel.get(model) ?? 0) + microUnits);
    }
    if (debtMicroUnits > 0) this.debt += debtMicroUnits;
  }

  /** Every endpoint and model with spend, and its micro-units. */
  *entries(): Iterable<SpendEntry> {
    for (const [endpoint, byModel] of this.byEndpoint)
      for (const [model, microUnits] of byModel) yield { endpoint, model, microUnits };
  }

  /** Micro-units of the settled spend recorded as debt. */
  get debtMicroUnits(): number {
    return this.debt;
  }
}
