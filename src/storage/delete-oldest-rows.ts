import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';

/** Each table retention prunes, with the indexed column that holds its rows' time (Unix milliseconds). */
export const retainedTableTimeColumns = {
  usage_logs: 'created_at',
  usage_hourly_rollups: 'hour',
  refused_request_counts: 'minute',
  request_bodies: 'created_at',
} as const;

/** A table whose old rows retention deletes in batches. */
export type RetainedTable = keyof typeof retainedTableTimeColumns;

/** One batch of a retention sweep: which table, rows older than when, and how many at most. */
export interface OldestRowsBatch {
  table: RetainedTable;
  /** Unix milliseconds: rows whose time column is before it go */
  before: number;
  /** most rows this one statement deletes */
  limit: number;
}

/**
 * Deletes at most `limit` of the oldest rows of `table` from before `before`, in one short statement that walks the
 * time column's index; returns how many went. SQLite picks them by rowid; PostgreSQL by ctid with `FOR UPDATE SKIP
 * LOCKED`, so two nodes sweeping at once take different rows and neither waits for (or deadlocks with) the other.
 */
export async function deleteOldestRows(
  database: Kysely<DatabaseSchema>,
  dialect: 'sqlite' | 'postgres',
  batch: OldestRowsBatch,
): Promise<number> {
  const table = sql.table(batch.table);
  const time = sql.ref(retainedTableTimeColumns[batch.table]);
  const limit = Math.max(1, Math.floor(batch.limit));
  const statement =
    dialect === 'postgres'
      ? sql`delete from ${table} where ctid = any(array(select ctid from ${table} where ${time} < ${batch.before} order by ${time} limit ${limit} for update skip locked))`
      : sql`delete from ${table} where rowid in (select rowid from ${table} where ${time} < ${batch.before} order by ${time} limit ${limit})`;
  const result = await statement.execute(database);
  return Number(result.numAffectedRows ?? 0n);
}
