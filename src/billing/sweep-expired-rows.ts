import type { RetainedTable } from '../storage/delete-oldest-rows.js';
import type { BillingStore } from '../storage/billing-store.js';
import type { RequestBodyStore } from '../storage/request-body-store.js';
import { usageRetentionBatches } from '../storage/usage-retention-batches.js';

const millisecondsPerDay = 86_400_000;

/** What one retention sweep works on and how far it goes. */
export interface RetentionSweepOptions {
  billingStore: Pick<BillingStore, 'deleteOldestRows'>;
  /** the body log's store, when bodies are kept */
  requestBodies?: Pick<RequestBodyStore, 'deleteOldestRequestBodies'>;
  /** Unix milliseconds the retention periods count back from */
  now: number;
  /** days of usage logs, refused-request counts and hourly rollups kept; 0 keeps them forever */
  usageLogRetentionDays: number;
  /** days of request bodies kept; 0 keeps them forever */
  requestBodyRetentionDays: number;
  /** most rows one statement deletes */
  batchRows: number;
  /** most rows one sweep deletes from each table; what is left goes in the next sweep */
  maxRowsPerRun: number;
  /** waits between two batches, so settlement batches and the console's reads run between them */
  pause: () => Promise<void>;
  /** true once the node is shutting down: the sweep stops before its next batch */
  stopped?: () => boolean;
}

/** What one sweep deleted. */
export interface RetentionSweepResult {
  /** rows deleted per table */
  deleted: Record<RetainedTable, number>;
  /** delete statements run */
  batches: number;
  /** false when a table hit the per-run bound and still has expired rows for the next sweep */
  complete: boolean;
}

/**
 * Deletes expired rows table by table in short statements of at most `batchRows` rows each, pausing between them, and
 * at most `maxRowsPerRun` rows per table, so a large backlog (the first sweep of a big table) never holds the SQLite
 * writer or PostgreSQL's locks for long: it is worked off over several sweeps. Daily rollups are never deleted.
 */
export async function sweepExpiredRows(options: RetentionSweepOptions): Promise<RetentionSweepResult> {
  const result: RetentionSweepResult = {
    deleted: { usage_logs: 0, refused_request_counts: 0, usage_hourly_rollups: 0, request_bodies: 0 },
    batches: 0,
    complete: true,
  };
  const jobs: Array<{ table: RetainedTable; deleteBatch: (limit: number) => Promise<number> }> = [];
  if (options.usageLogRetentionDays > 0) {
    const cutoff = options.now - options.usageLogRetentionDays * millisecondsPerDay;
    for (const batch of usageRetentionBatches(cutoff, options.batchRows))
      jobs.push({
        table: batch.table,
        deleteBatch: (limit) => options.billingStore.deleteOldestRows({ ...batch, limit }),
      });
  }
  const bodies = options.requestBodies;
  if (bodies && options.requestBodyRetentionDays > 0) {
    const cutoff = options.now - options.requestBodyRetentionDays * millisecondsPerDay;
    jobs.push({ table: 'request_bodies', deleteBatch: (limit) => bodies.deleteOldestRequestBodies(cutoff, limit) });
  }
  for (const job of jobs) {
    for (;;) {
      const room = options.maxRowsPerRun - result.deleted[job.table];
      if (room <= 0 || options.stopped?.()) {
        result.complete = false;
        break;
      }
      const limit = Math.min(options.batchRows, room);
      const deleted = await job.deleteBatch(limit);
      result.batches += 1;
      result.deleted[job.table] += deleted;
      if (deleted < limit) break;
      await options.pause();
    }
  }
  return result;
}
