// Migrations on a SQLite file run in one IMMEDIATE transaction (TransactionalDdlSqliteAdapter): two processes that
// migrate the same fresh file at once both succeed, and a migration that fails halfway leaves nothing behind.
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

  /** A connection of its own to the file, in a worker of its own, as another gateway process has. */
  const openConnection = (): Kysely<DatabaseSchema> => {
    const { database } = createSqliteWorkerDatabase(path);
    opened.push(database);
    return database;
  };

  const tableNames = async (database: Kysely<DatabaseSchema>): Promise<string[]> =>
    (await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(database)).rows.map((row) => row.name);

  it('lets three connections migrate the same fresh file at once, each migration applied once', async () => {
    const connections = [openConnection(), openConnection(), openConnection()];
    const outcomes = await Promise.allSettled(connections.map((database) => runMigrations(database)));
    expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'migrated'))).toEqual(['migrated', 'migrated', 'migrated']);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(connections[0]!);
    expect(applied.rows).toHaveLength(16);
    expect(applied.rows.at(-1)?.name).toBe('0016-video-tasks');
    expect(await tableNames(connections[1]!)).toEqual(expect.arrayContaining(['users', 'ledger_entries', 'usage_logs', 'video_tasks']));
  });

  it('leaves no table of a migration that failed halfway, so the next start can run it again', async () => {
    const database = openConnection();
    const failingHalfway: Migration = {
      up: async (migrating) => {
        await migrating.schema.createTable('first_half').addColumn('id', 'text', (column) => column.primaryKey()).execute();
        throw new Error('the process died here');
      },
    };
    const migrator = new Migrator({ db: database, provider: { getMigrations: async () => ({ '0001-half': failingHalfway }) } });
    const { error } = await migrator.migrateToLatest();
    expect(String(error)).toContain('the process died here');
    expect(await tableNames(database)).not.toContain('first_half');
    const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(database);
    expect(applied.rows).toEqual([]);
  });
});
