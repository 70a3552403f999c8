import type { SettledBalance, SettlementBatch } from '../billing-records.js';
import type { PreparedStatementStatistics } from './prepared-statement-cache.js';

/** What the worker thread is started with (its `workerData`). */
export interface SqliteWorkerData {
  /** the database file the worker opens */
  path: string;
}

/** One request to the worker thread; each gets exactly one response with the same id. */
export type SqliteWorkerRequest =
  /** runs one compiled statement on the worker's connection */
  | { kind: 'query'; sql: string; parameters: readonly unknown[] }
  /** writes a whole settlement batch in one transaction; `now` is Unix milliseconds */
  | { kind: 'settle'; batch: SettlementBatch; now: number }
  /** reads the prepared statement cache's counters */
  | { kind: 'statistics' }
  /** closes the connection; the thread is terminated after the answer */
  | { kind: 'close' }
  /** ends the thread at once without answering, as a crash would (tests of the crash path) */
  | { kind: 'exit' };

/** The result of a statement, as Kysely's `QueryResult` carries it. */
export interface SqliteQueryOutcome {
  rows: unknown[];
  /** rows changed by an INSERT, UPDATE or DELETE; absent for statements that return rows */
  numAffectedRows?: bigint;
  /** rowid of the last inserted row; absent for statements that return rows */
  insertId?: bigint;
}

/** The result each request kind answers with. */
export interface SqliteWorkerResults {
  query: SqliteQueryOutcome;
  settle: SettledBalance[];
  statistics: PreparedStatementStatistics;
  close: null;
  exit: never;
}

/** A request as posted: the id pairs it with its response. */
export interface SqliteWorkerEnvelope {
  id: number;
  request: SqliteWorkerRequest;
}

/** What callers of the store rely on from a driver error (better-sqlite3's SqliteError), cloned field by field. */
export interface SerializedSqliteError {
  name: string;
  message: string;
  /** e.g. SQLITE_CONSTRAINT_UNIQUE; absent for errors that are not SQLite's */
  code?: string;
}

/** The worker's answer to one request. */
export type SqliteWorkerResponse =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedSqliteError };
