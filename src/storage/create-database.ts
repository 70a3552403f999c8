import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import type { DatabaseSchema } from './database-schema.js';

/** Which engine a database URL points at. */
export type DatabaseDialect = 'sqlite' | 'postgres';

/** An open Kysely instance and the engine behind it. */
export interface CreatedDatabase {
  database: Kysely<DatabaseSchema>;
  dialect: DatabaseDialect;
}

const postgresBigintTypeId = 20;
const sqliteMemoryPath = ':memory:';

/**
 * Opens the database a URL names: `sqlite:./relative.db`, `sqlite:/absolute.db`, `sqlite::memory:`,
 * or `postgres://` / `postgresql://` connection strings.
 */
export function createDatabase(databaseUrl: string): CreatedDatabase {
  if (databaseUrl.startsWith('sqlite:')) {
    return { database: createSqliteDatabase(parseSqlitePath(databaseUrl)), dialect: 'sqlite' };
  }
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) {
    return { database: createPostgresDatabase(databaseUrl), dialect: 'postgres' };
  }
  throw new Error(
    'Unsupported database URL: expected sqlite:<path>, sqlite::memory:, postgres://... or postgresql://...',
  );
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

function createSqliteDatabase(path: string): Kysely<DatabaseSchema> {
  if (path !== sqliteMemoryPath) {
    mkdirSync(dirname(resolve(path)), { recursive: true });
  }
  const connection = new SqliteDatabase(path);
  if (path !== sqliteMemoryPath) {
    // WAL lets readers (other processes, the CLI) work while the gateway writes.
    connection.pragma('journal_mode = WAL');
  }
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  return new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: connection }) });
}

function createPostgresDatabase(connectionString: string): Kysely<DatabaseSchema> {
  // Loaded here, not at the top: SQLite users (the default) never pay its memory.
  const postgres = createRequire(import.meta.url)('pg') as typeof pg;
  // Per-pool parsers so this process's other pg users keep pg's default of bigint as string.
  const types = new postgres.TypeOverrides();
  types.setTypeParser(postgresBigintTypeId, 'text', parseBigintAsNumber);
  const pool = new postgres.Pool({ connectionString, types });
  // Without a listener, a dropped idle connection would crash the process; the pool replaces it anyway.
  pool.on('error', (error) => process.emitWarning(error));
  return new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
}

function parseBigintAsNumber(value: string): number {
  const parsed = Number(value);
  // Timestamps and counters fit easily; refusing larger values keeps amounts from silently losing digits.
  if (!Number.isSafeInteger(parsed)) {
    throw new Error(`bigint value ${value} does not fit in a JavaScript number`);
  }
  return parsed;
}
