import { SqliteAdapter } from 'kysely';

/**
 * Kysely's SQLite adapter, except that migrations run in one transaction. Kysely's own says SQLite has no
 * transactional DDL (it has) and takes no lock, assuming one connection. But two gateway commands started at once on
 * a fresh data folder are two connections: both read the list of applied migrations, and the second then failed
 * with "table users already exists". A process killed halfway through a migration left the schema half-made, with no
 * record of it, so every later start failed the same way. In one transaction, begun IMMEDIATE by the worker's driver,
 * the second process waits for the first to commit and then reads an up-to-date list; and a migration cut short
 * leaves nothing behind. The transaction's write lock is the migration lock, so the lock table is not used.
 */
export class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
