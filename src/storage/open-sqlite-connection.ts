import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/** The path better-sqlite3 reads as a private in-memory database. */
export const sqliteMemoryPath = ':memory:';

/** Opens a better-sqlite3 connection with the gateway's pragmas (WAL for files, foreign keys, a 5 s busy timeout). */
export function openSqliteConnection(path: string): SqliteDatabase.Database {
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
  return connection;
}
