import type { UsageLogRecord } from './billing-records.js';
import type { UsageDailyRollupsTable } from './database-schema.js';
import { sumUsageLogs } from './sum-usage-logs.js';

/** Sums usage log rows per UTC day, user, key and model, ready to add onto `usage_daily_rollups`. */
export function mapUsageLogToRollups(logs: readonly UsageLogRecord[]): UsageDailyRollupsTable[] {
  return sumUsageLogs(logs, (createdAt) => new Date(createdAt).toISOString().slice(0, 10)).map(({ bucket, ...sums }) => ({ day: bucket, ...sums }));
}
