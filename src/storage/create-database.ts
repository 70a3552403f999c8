import { createRequire } from 'node:module';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import type { SettledBalance, SettlementBatch } from './billing-records.js';
import type { DatabaseSchema } from './database-schema.js';
import { createPostgresPool, type DatabaseFaultReporter } from './create-postgres-pool.js';
import { loadDatabaseConnectionSettings, type DatabaseConnectionSettings } from './database-connection-settings.js';
import { openSqliteConnection, sqliteMemoryPath } from './open-sqlite-connection.js';
import { createStatementCachingConnection } from './sqlite-worker/prepared-statement-cache.js';
import { createSqliteWorkerDatabase } from './sqlite-worker/create-sqlite-worker-database.js';

/** Which engine a database URL points at. */
export type DatabaseDialect = 'sqlite' | 'postgres';

/** An open Kysely instance and the engine behind it. */
export interface CreatedDatabase {
  database: Kysely<DatabaseSchema>;
  dialect: DatabaseDialect;
  /** SQLite files only: writes a settlement batch (at `now`, Unix ms) in the worker thread, queries built there too */
  writeSettlementBatch?: (batch: SettlementBatch, now: number) => Promise<SettledBalance[]>;
}

/** How a database is opened beyond its URL. */
export interface CreateDatabaseOptions {
  /** statement and connect timeouts (PostgreSQL); default from GATEWAY_DATABASE_*_TIMEOUT_MS */
  settings?: DatabaseConnectionSettings;
  /** where connection failures are reported (rate limited here); default a process warning */
  report?: DatabaseFaultReporter;
}

const postgresBigintTypeId = 20;
/** A failing server reports each broken connection: one report per this many milliseconds at most. */
const faultReportGapMs = 5_000;

/**
 * Opens the database a URL names: `sqlite:./relative.db`, `sqlite:/absolute.db`, `sqlite::memory:`,
 * or `postgres://` / `postgresql://` connection strings.
 */
export function createDatabase(databaseUrl: string, options: CreateDatabaseOptions = {}): CreatedDatabase {
  if (databaseUrl.startsWith('sqlite:')) {
    return createSqliteDatabase(parseSqlitePath(databaseUrl));
  }
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) {
    const settings = options.settings ?? loadDatabaseConnectionSettings();
    const report = limitReports(options.report ?? ((error, what) => process.emitWarning(`${what}: ${error.message}`)));
    return { database: createPostgresDatabase(databaseUrl, settings, report), dialect: 'postgres' };
  }
  throw new Error(
    'Unsupported database URL: expected sqlite:<path>, sqlite::memory:, postgres://... or postgresql://...',
  );
}

/** The file a `sqlite:` database URL names; undefined for PostgreSQL and for `sqlite::memory:`. */
export function sqliteFilePath(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith('sqlite:')) return undefined;
  const path = parseSqlitePath(databaseUrl);
  return path === sqliteMemoryPath ? undefined : path;
}

function parseSqlitePath(databaseUrl: string): string {
  const rest = databaseUrl.slice('sqlite:'.length);
  // Accept the `sqlite:///absolute/path` spelling some tools write, as well as `sqlite:/absolute/path`.
  const path = rest.startsWith('//') ? rest.slice(2) : rest;
  if (path === '') {
    throw new Error('The sqlite: database URL has no file path, e.g. sqlite:./data/gateway.db');
  }
  return path;
}

function createSqliteDatabase(path: string): CreatedDatabase {
  // A file database (the product's default) runs its statements in a worker thread, off the event loop (ADR 0009).
  if (path !== sqliteMemoryPath) return createSqliteWorkerDatabase(path);
  // A memory database cannot be shared with another thread, and serves only tests and throwaway runs: it stays here.
  const connection = createStatementCachingConnection(openSqliteConnection(path));
  return {
    database: new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: connection.database }) }),
    dialect: 'sqlite',
  };
}

function createPostgresDatabase(
  connectionString: string,
  settings: DatabaseConnectionSettings,
  report: DatabaseFaultReporter,
): Kysely<DatabaseSchema> {
  // Loaded here, not at the top: SQLite users (the default) never pay its memory.
  const postgres = createRequire(import.meta.url)('pg') as typeof pg;
  // Per-pool parsers so this process's other pg users keep pg's default of bigint as string.
  const types = new postgres.TypeOverrides();
  types.setTypeParser(postgresBigintTypeId, 'text', parseBigintAsNumber);
  const { kyselyPool } = createPostgresPool({ postgres, connectionString, types, settings, report });
  return new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool: kyselyPool }) });
}

/** Reports the first failure, then at most one per `faultReportGapMs` with the count of those left out. */
function limitReports(report: DatabaseFaultReporter): DatabaseFaultReporter {
  let lastAt = Number.NEGATIVE_INFINITY;
  let leftOut = 0;
  return (error, what) => {
    const now = Date.now();
    if (now - lastAt < faultReportGapMs) {
      leftOut += 1;
      return;
    }
    lastAt = now;
    report(error, leftOut > 0 ? `${what} (and ${leftOut} more database faults since the last report)` : what);
    leftOut = 0;
  };
}

function parseBigintAsNumber(value: string): number {
  const parsed = Number(value);
  // Timestamps and counters fit easily; refusing larger values keeps amounts from silently losing digits.
  if (!Number.isSafeInteger(parsed)) {
    throw new Error(`bigint value ${value} does not fit in a JavaScript number`);
  }
  return parsed;
}
