import type { HourlyUsageRecord } from '../../storage/billing-records.js';

const millisecondsPerHour = 3_600_000;

/** Sums of one hour (or of a whole range): requests, errors, tokens and micro-units. */
export interface UsageTotals {
  requestCount: number;
  errorCount: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** micro-units */
  cost: number;
}

/** The hourly view: every hour of [from, to) with its totals (zero when nothing happened), and the totals of all. */
export interface HourlyUsageSummary {
  /** oldest first; `hour` is the Unix milliseconds of the hour's start */
  hours: Array<{ hour: number } & UsageTotals>;
  totals: UsageTotals;
}

/** Adds per-key, per-model hourly rows into one row per hour of [from, to) (from aligned to an hour) and overall totals. */
export function summarizeHourlyUsage(rows: readonly HourlyUsageRecord[], from: number, to: number): HourlyUsageSummary {
  const hours = new Map<number, { hour: number } & UsageTotals>();
  for (let hour = from; hour < to; hour += millisecondsPerHour) hours.set(hour, { hour, ...emptyTotals() });
  const totals = emptyTotals();
  for (const row of rows) {
    const bucket = hours.get(row.hour);
    if (bucket) addTotals(bucket, row);
    addTotals(totals, row);
  }
  return { hours: [...hours.values()], totals };
}

/** Totals with nothing counted. */
export function emptyTotals(): UsageTotals {
  return { requestCount: 0, errorCount: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, cost: 0 };
}

/** Adds `row`'s counts onto `sum`. */
export function addTotals(sum: UsageTotals, row: UsageTotals): void {
  sum.requestCount += row.requestCount;
  sum.errorCount += row.errorCount;
  sum.promptTokens += row.promptTokens;
  sum.completionTokens += row.completionTokens;
  sum.cachedTokens += row.cachedTokens;
  sum.cost += row.cost;
}
