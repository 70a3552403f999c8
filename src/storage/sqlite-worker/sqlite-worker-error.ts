import type { SerializedSqliteError } from './sqlite-worker-messages.js';

/**
 * An error the worker's SQLite connection raised, rebuilt on the main thread with the fields callers test: the
 * message, the name (SqliteError) and the `code` (e.g. SQLITE_CONSTRAINT_UNIQUE, read by the stores' conflict checks).
 */
export class SqliteWorkerError extends Error {
  /** better-sqlite3's extended result code, e.g. SQLITE_CONSTRAINT_UNIQUE; undefined for errors that are not SQLite's */
  readonly code: string | undefined;

  constructor(serialized: SerializedSqliteError) {
    super(serialized.message);
    this.name = serialized.name;
    this.code = serialized.code;
  }
}
