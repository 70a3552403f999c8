import type { DailyUsageSummary, HourlyUsageSummary } from './dashboard-types';

/** One rollup row of a period, whatever its granularity: the bucket (a day or an hour), key, model and counts. */
export interface UsageRow {
  /** a UTC day (YYYY-MM-DD) or an hour's start in Unix milliseconds, as a string */
  bucket: string;
  apiKeyId: string;
  model: string;
  requestCount: number;
  errorCount: number;
  /** micro-units */
  cost: number;
}

/** The rows of a time range and every bucket of it, oldest first (a bucket without rows still shows, as zero). */
export interface UsagePeriod {
  buckets: string[];
  rows: UsageRow[];
}

/** Sums of a period. */
export interface PeriodTotals {
  requestCount: number;
  errorCount: number;
  /** micro-units */
  cost: number;
}

/** The daily rows of `summary` that fall on `days` (UTC, oldest first), as a period of those days. */
export function dailyPeriod(summary: DailyUsageSummary, days: string[]): UsagePeriod {
  const wanted = new Set(days);
  const rows = summary.data
    .filter((row) => wanted.has(row.day))
    .map((row) => ({ bucket: row.day, apiKeyId: row.apiKeyId, model: row.model, requestCount: row.requestCount, errorCount: row.errorCount, cost: row.cost }));
  return { buckets: days, rows };
}

/** The hourly summary as a period of its hours. */
export function hourlyPeriod(summary: HourlyUsageSummary): UsagePeriod {
  const rows = summary.data.map((row) => ({ bucket: String(row.hour), apiKeyId: row.apiKeyId, model: row.model, requestCount: row.requestCount, errorCount: row.errorCount, cost: row.cost }));
  return { buckets: summary.hours.map((hour) => String(hour.hour)), rows };
}

/** Adds up a period's requests, errors and cost. */
export function periodTotals(period: UsagePeriod): PeriodTotals {
  const totals: PeriodTotals = { requestCount: 0, errorCount: 0, cost: 0 };
  for (const row of period.rows) {
    totals.requestCount += row.requestCount;
    totals.errorCount += row.errorCount;
    totals.cost += row.cost;
  }
  return totals;
}
