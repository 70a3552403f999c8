import type { UsageLogRecord } from './billing-records.js';
import type { UsageHourlyRollupsTable } from './database-schema.js';

const millisecondsPerHour = 3_600_000;

/** Sums usage log rows per UTC hour, user, key and model, ready to add onto `usage_hourly_rollups`. */
export function mapUsageLogToHourlyRollups(logs: readonly UsageLogRecord[]): UsageHourlyRollupsTable[] {
  const rollups = new Map<string, UsageHourlyRollupsTable>();
  for (const log of logs) {
    const hour = Math.floor(log.createdAt / millisecondsPerHour) * millisecondsPerHour;
    const key = `${hour}\u0000${log.userId}\u0000${log.apiKeyId}\u0000${log.model}`;
    let rollup = rollups.get(key);
    if (!rollup) {
      rollup = { hour, user_id: log.userId, api_key_id: log.apiKeyId, model: log.model, request_count: 0, error_count: 0, prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, cost: 0 };
      rollups.set(key, rollup);
    }
    rollup.request_count += 1;
    if (log.status >= 400) rollup.error_count += 1;
    rollup.prompt_tokens += log.promptTokens;
    rollup.completion_tokens += log.completionTokens;
    rollup.cached_tokens += log.cachedTokens;
    rollup.cost += log.cost;
  }
  return [...rollups.values()];
}
