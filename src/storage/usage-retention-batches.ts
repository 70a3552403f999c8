import type { OldestRowsBatch, RetainedTable } from './delete-oldest-rows.js';

/** The usage tables the usage-log retention prunes (daily rollups are kept forever). */
export type UsageRetainedTable = Exclude<RetainedTable, 'request_bodies'>;

const millisecondsPerHour = 3_600_000;

/**
 * The batches of one usage-log retention cut at `cutoff` (Unix milliseconds), in the order they run: usage logs older
 * than the cut, refused-request counts of minutes before it, and hourly rollups of whole hours before it (an hour
 * that began more than an hour before the cut). Daily rollups are never deleted: they feed the console's long
 * ranges and the ledger views.
 */
export function usageRetentionBatches(
  cutoff: number,
  limit: number,
): Array<OldestRowsBatch & { table: UsageRetainedTable }> {
  return [
    { table: 'usage_logs', before: cutoff, limit },
    { table: 'refused_request_counts', before: cutoff, limit },
    { table: 'usage_hourly_rollups', before: cutoff - millisecondsPerHour, limit },
  ];
}
