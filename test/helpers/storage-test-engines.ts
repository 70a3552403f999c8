// The two engines every storage suite runs on: SQLite in a temporary folder always, PostgreSQL when configured (always in CI).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresTestDatabaseUrl, shouldRunPostgresTests } from './postgres-test-database.js';

/** A throwaway database: its URL, and how to remove it. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** One engine a storage suite runs on: its name, how to make a fresh database, and whether it runs here. */
export interface StorageTestEngine {
  name: 'SQLite' | 'PostgreSQL';
  create: () => Promise<TestDatabase>;
  run: boolean;
}

/** SQLite (files under a temporary folder named with `folderPrefix`) and PostgreSQL (GATEWAY_TEST_POSTGRES_URL). */
export function storageTestEngines(folderPrefix: string): StorageTestEngine[] {
  return [
    {
      name: 'SQLite',
      run: true,
      create: async () => {
        const folder = await mkdtemp(join(tmpdir(), `${folderPrefix}-`));
        return {
          url: `sqlite:${join(folder, 'gateway.db')}`,
          drop: () => rm(folder, { recursive: true, force: true }),
        };
      },
    },
    {
      name: 'PostgreSQL',
      run: shouldRunPostgresTests(),
      create: async () => {
        const database = await createPostgresTestDatabaseUrl();
        if (database === undefined) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set');
        return database;
      },
    },
  ];
}
