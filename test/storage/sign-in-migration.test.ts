import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, type Kysely, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/storage/create-database.js';
import { createSignInStore } from '../../src/storage/kysely-sign-in-store.js';
import { initialSchemaMigration } from '../../src/storage/migrations/0001-initial-schema.js';
import { channelSettingsMigration } from '../../src/storage/migrations/0002-channel-settings.js';
import { billingSchemaMigration } from '../../src/storage/migrations/0003-billing-schema.js';
import { modelCatalogEntriesMigration } from '../../src/storage/migrations/0004-model-catalog-entries.js';
import { userGroupsMigration } from '../../src/storage/migrations/0005-user-groups.js';
import { userDebtMigration } from '../../src/storage/migrations/0006-user-debt.js';
import { usageLogCacheWriteTokensMigration } from '../../src/storage/migrations/0007-usage-log-cache-write-tokens.js';
import { auditLogMigration } from '../../src/storage/migrations/0008-audit-log.js';
import { createPostgresTestDatabaseUrl, shouldRunPostgresTests } from '../helpers/postgres-test-database.js';

/** The schema as it was before migration 0009 (sign-in). */
const migrationsBeforeSignIn: Record<string, Migration> = {
  '0001-initial-schema': initialSchemaMigration,
  '0002-channel-settings': channelSettingsMigration,
  '0003-billing-schema': billingSchemaMigration,
  '0004-model-catalog-entries': modelCatalogEntriesMigration,
  '0005-user-groups': userGroupsMigration,
  '0006-user-debt': userDebtMigration,
  '0007-usage-log-cache-write-tokens': usageLogCacheWriteTokensMigration,
  '0008-audit-log': auditLogMigration,
};

interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

let drops: Array<() => Promise<void>> = [];

afterEach(async () => {
  const pending = drops;
  drops = [];
  for (const drop of pending) await drop();
});

async function createSqliteTestDatabase(): Promise<TestDatabase> {
  const folder = await mkdtemp(join(tmpdir(), 'gateway-sign-in-migration-'));
  return { url: `sqlite:${join(folder, 'gateway.db')}`, drop: () => rm(folder, { recursive: true, force: true }) };
}

async function createPostgresTestDatabase(): Promise<TestDatabase> {
  const database = await createPostgresTestDatabaseUrl();
  if (!database) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set');
  return database;
}

async function seedOldDatabase(database: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db: database, provider: { getMigrations: async () => migrationsBeforeSignIn } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  await database
    .insertInto('users')
    .values({
      id: 'usr_ada',
      email: 'ada@example.com',
      display_name: 'Ada',
      role: 'admin',
      password_hash: 'hash',
      status: 'active',
      created_at: 1,
    })
    .execute();
  await database
    .insertInto('console_sessions')
    .values({ token_hash: 'old-session', user_id: 'usr_ada', created_at: 1, expires_at: Date.now() + 3_600_000 })
    .execute();
  await database
    .insertInto('admin_tokens')
    .values([
      { token_hash: 'old-token-1', name: 'ci', created_at: 1 },
      { token_hash: 'old-token-2', name: 'ops', created_at: 2 },
    ])
    .execute();
}

const engines = [
  { name: 'SQLite', create: createSqliteTestDatabase, run: true },
  { name: 'PostgreSQL', create: createPostgresTestDatabase, run: shouldRunPostgresTests() },
];

for (const engine of engines) {
  describe.runIf(engine.run)(`migration 0009 on ${engine.name}`, () => {
    it('gives existing admin tokens an id and 90 days, and ends sessions that have no id', async () => {
      const database = await engine.create();
      drops.push(database.drop);
      const opened = createDatabase(database.url);
      await seedOldDatabase(opened.database);
      const before = Date.now();
      const store = createSignInStore({ database: opened });
      await store.migrate();

      const tokens = await store.listAdminTokens();
      expect(tokens.map((token) => token.name)).toEqual(['ci', 'ops']);
      expect(new Set(tokens.map((token) => token.id)).size).toBe(2);
      for (const token of tokens) {
        expect(token.id).toMatch(/^adm_/);
        expect(token.expiresAt).toBeGreaterThanOrEqual(before + 90 * 86_400_000);
      }
      expect(await store.findAdminToken('old-token-1', Date.now())).toBeDefined();
      expect(await store.findSession('old-session', Date.now())).toBeUndefined();
      await opened.database.destroy();
    });
  });
}
