import type { UsageLogRecord } from './billing-records.js';
import type { UsageHourlyRollupsTable } from './database-schema.js';
import { sumUsageLogs } from './sum-usage-logs.js';

const millisecondsPerHour = 3_600_000;

/** Sums usage log rows per UTC hour, user, key and model, ready to add onto `usage_hourly_rollups`. */
export function mapUsageLogToHourlyRollups(logs: readonly UsageLogRecord[]): UsageHourlyRollupsTable[] {
  return sumUsageLogs(logs, (createdAt) => Math.floor(createdAt / millisecondsPerHour) * millisecondsPerHour).map(({ bucket, ...sums }) => ({ hour: bucket, ...sums }));
}
