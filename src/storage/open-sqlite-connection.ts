import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/** The path better-sqlite3 reads as a private in-memory database. */
export const sqliteMemoryPath = ':memory:';

/**
 * SQLite's page cache per connection, in KiB. better-sqlite3 builds SQLite with 16,000 KiB, and the gateway's one file
 * connection filled all of it under load, because the usage log grows by a row per request. Ids sort by time, so
 * writes touch only the last pages of each index; 2 MiB holds those, and older pages come back from the OS's cache.
 */
export const sqlitePageCacheKibibytes = 2048;

/** Opens a better-sqlite3 connection with the gateway's pragmas (WAL for files, foreign keys, a 5 s busy timeout, a 2 MiB page cache). */
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
  // A negative cache_size is in KiB rather than pages.
  connection.pragma(`cache_size = -${sqlitePageCacheKibibytes}`);
  return connection;
}
