// Migrations on a SQLite file run in one IMMEDIATE transaction (TransactionalDdlSqliteAdapter): processes that migrate
// the same fresh file at once all succeed, and a migration that fails halfway leaves nothing behind.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMigrations } from '../../src/storage/run-migrations.js';
import type { DatabaseSchema } from '../../src/storage/database-schema.js';
import { createSqliteWorkerDatabase } from '../../src/storage/sqlite-worker/create-sqlite-worker-database.js';

describe('migrations on a SQLite file', () => {
  let folder: string;
  let path: string;
  const opened: Kysely<DatabaseSchema>[] = [];

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'gateway-migrations-'));
    path = join(folder, 'gateway.db');
  });

  afterEach(async () => {
    for (const database of opened.splice(0)) await database.destroy();
    await rm(folder, { recursive: true, force: true });
  });

  /** A connection of its own to the file (by default the shared one), in a worker of its own, as another process has. */
  const openConnection = (file = path): Kysely<DatabaseSchema> => {
    const { database } = createSqliteWorkerDatabase(file);
    opened.push(database);
    return database;
  };

  const appliedMigrations = async (database: Kysely<DatabaseSchema>): Promise<string[]> =>
    (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database)).rows.map(
      (row) => row.name,
    );

  const tableNames = async (database: Kysely<DatabaseSchema>): Promise<string[]> =>
    (
      await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(database)
    ).rows.map((row) => row.name);

  it('lets three connections migrate the same fresh file at once, each migration applied once', async () => {
    const connections = [openConnection(), openConnection(), openConnection()];
    const outcomes = await Promise.allSettled(connections.map((database) => runMigrations(database)));
    expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'migrated'))).toEqual([
      'migrated',
      'migrated',
      'migrated',
    ]);
    // The same migrations and tables as a file one connection migrated alone.
    const alone = openConnection(join(folder, 'alone.db'));
    await runMigrations(alone);
    expect(await appliedMigrations(connections[0]!)).toEqual(await appliedMigrations(alone));
    expect(await tableNames(connections[1]!)).toEqual(await tableNames(alone));
  });

  it('leaves no table of a migration that failed halfway, so the next start can run it again', async () => {
    const database = openConnection();
    const failingHalfway: Migration = {
      up: async (migrating) => {
        await migrating.schema
          .createTable('first_half')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .execute();
        throw new Error('the process died here');
      },
    };
    const migrator = new Migrator({
      db: database,
      provider: { getMigrations: async () => ({ '0001-half': failingHalfway }) },
    });
    const { error } = await migrator.migrateToLatest();
    expect(String(error)).toContain('the process died here');
    expect(await tableNames(database)).not.toContain('first_half');
    expect(await appliedMigrations(database)).toEqual([]);
  });
});
