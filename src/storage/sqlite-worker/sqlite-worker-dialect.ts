import {
  CompiledQuery,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { ConnectionMutex } from './connection-mutex.js';
import type { SqliteWorkerClient } from './sqlite-worker-client.js';
import { TransactionalDdlSqliteAdapter } from './transactional-ddl-sqlite-adapter.js';

/**
 * Kysely's SQLite dialect with the connection in a worker thread: same SQL and introspection as SqliteDialect, and its
 * adapter but for migrations, which run in one transaction.
 */
export class SqliteWorkerDialect implements Dialect {
  readonly #client: SqliteWorkerClient;
  readonly #mutex: ConnectionMutex;

  /** `mutex` is shared with anything else that sends work to the same worker (the settlement batch writer). */
  constructor(client: SqliteWorkerClient, mutex: ConnectionMutex) {
    this.#client = client;
    this.#mutex = mutex;
  }

  createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  createDriver(): Driver {
    return new SqliteWorkerDriver(this.#client, this.#mutex);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createIntrospector(database: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(database);
  }
}

/** One connection at a time, like Kysely's SqliteDriver; the connection's statements run in the worker. */
class SqliteWorkerDriver implements Driver {
  readonly #client: SqliteWorkerClient;
  readonly #mutex: ConnectionMutex;

  constructor(client: SqliteWorkerClient, mutex: ConnectionMutex) {
    this.#client = client;
    this.#mutex = mutex;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    try {
      return new SqliteWorkerConnection(this.#client, this.#client.start());
    } catch (error) {
      this.#mutex.unlock();
      throw error;
    }
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // IMMEDIATE takes the write lock now, waiting out another process's writes (the CLI beside a running gateway)
    // for the busy timeout. A deferred transaction that read first would instead fail at its first write, at once
    // and without waiting, whenever another process had committed since its read (SQLITE_BUSY_SNAPSHOT).
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // A worker that died took its transaction with it (SQLite rolls it back); Kysely then rethrows the first error.
    if (connection instanceof SqliteWorkerConnection && !connection.isAlive()) return;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, savepointName: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(savepointName)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, savepointName: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteIdentifier(savepointName)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, savepointName: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteIdentifier(savepointName)}`));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    await this.#client.close();
  }
}

/** The connection a holder of the mutex uses; bound to the worker that ran when it was acquired. */
class SqliteWorkerConnection implements DatabaseConnection {
  readonly #client: SqliteWorkerClient;
  readonly #generation: number;

  constructor(client: SqliteWorkerClient, generation: number) {
    this.#client = client;
    this.#generation = generation;
  }

  /** False once the worker this connection ran on has stopped. */
  isAlive(): boolean {
    return this.#client.isRunning(this.#generation);
  }

  async executeQuery<Row>(compiledQuery: CompiledQuery): Promise<QueryResult<Row>> {
    const outcome = await this.#client.request(
      { kind: 'query', sql: compiledQuery.sql, parameters: compiledQuery.parameters },
      this.#generation,
    );
    restoreBuffers(outcome.rows);
    return outcome as QueryResult<Row>;
  }

  // Nothing in the gateway streams from SQLite; say so rather than buffer a whole result behind an iterator.
  async *streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    throw new Error('Streaming queries are not supported on SQLite behind the worker thread; use execute()');
  }
}

/** Blobs arrive as Uint8Array (a Buffer loses its class in the structured clone); better-sqlite3 gives Buffers. */
function restoreBuffers(rows: unknown[]): void {
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    for (const column in record) {
      const value = record[column];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value))
        record[column] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
