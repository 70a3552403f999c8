// The /api answers the dashboard reads (docs/API.md "Console API"). Amounts are integer micro-units.

/** Counts of one row or of a whole range: requests, errors, tokens and cost. */
export interface UsageCounts {
  requestCount: number;
  errorCount: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
  /** micro-units */
  cost: number;
}

/** One daily rollup row: a UTC day, key and model. */
export interface DailyUsageRow extends UsageCounts {
  /** YYYY-MM-DD (UTC) */
  day: string;
  userId: string;
  apiKeyId: string;
  model: string;
}

/** GET /api/usage/summary?fromDay&toDay */
export interface DailyUsageSummary {
  data: DailyUsageRow[];
  totals: UsageCounts;
}

/** One hourly rollup row: a UTC hour, key and model. */
export interface HourlyUsageRow extends UsageCounts {
  /** Unix milliseconds of the hour's start */
  hour: number;
  userId: string;
  apiKeyId: string;
  model: string;
}

/** GET /api/usage/summary?granularity=hour */
export interface HourlyUsageSummary {
  granularity: 'hour';
  from: number;
  to: number;
  data: HourlyUsageRow[];
  /** every hour of the range, oldest first, zeros where nothing happened */
  hours: Array<{ hour: number } & UsageCounts>;
  totals: UsageCounts;
}
