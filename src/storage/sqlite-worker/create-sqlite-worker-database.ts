import { Kysely } from 'kysely';
import type { SettledBalance, SettlementBatch } from '../billing-records.js';
import type { DatabaseSchema } from '../database-schema.js';
import { openSqliteConnection } from '../open-sqlite-connection.js';
import { ConnectionMutex } from './connection-mutex.js';
import { SqliteWorkerClient } from './sqlite-worker-client.js';
import { SqliteWorkerDialect } from './sqlite-worker-dialect.js';

/** A file database whose connection lives in a worker thread, and the worker's main-thread end (tests, diagnosis). */
export interface SqliteWorkerDatabase {
  database: Kysely<DatabaseSchema>;
  dialect: 'sqlite';
  /** writes a settlement batch in one message; the worker builds and runs every statement */
  writeSettlementBatch: (batch: SettlementBatch, now: number) => Promise<SettledBalance[]>;
  worker: SqliteWorkerClient;
}

/** Opens `path` in a worker thread (started on the first query; `database.destroy()` ends it). */
export function createSqliteWorkerDatabase(path: string): SqliteWorkerDatabase {
  // Opened once here too, so a bad path fails at once as before and the file (in WAL mode) exists when this returns.
  openSqliteConnection(path).close();
  const worker = new SqliteWorkerClient(path);
  // One mutex for Kysely's connection and the batch writer: a batch never lands inside another caller's transaction.
  const mutex = new ConnectionMutex();
  return {
    database: new Kysely<DatabaseSchema>({ dialect: new SqliteWorkerDialect(worker, mutex) }),
    dialect: 'sqlite',
    writeSettlementBatch: (batch, now) =>
      mutex.runExclusive(() => worker.request({ kind: 'settle', batch, now }, worker.start())),
    worker,
  };
}
