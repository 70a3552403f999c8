import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, type Kysely, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/storage/create-database.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import { initialSchemaMigration } from '../../src/storage/migrations/0001-initial-schema.js';
import { channelSettingsMigration } from '../../src/storage/migrations/0002-channel-settings.js';
import { billingSchemaMigration } from '../../src/storage/migrations/0003-billing-schema.js';
import { modelCatalogEntriesMigration } from '../../src/storage/migrations/0004-model-catalog-entries.js';
import { createPostgresTestDatabaseUrl, shouldRunPostgresTests } from '../helpers/postgres-test-database.js';

/** The schema as it was before user ↔ group grants existed. */
const migrationsBeforeGrants: Record<string, Migration> = {
  '0001-initial-schema': initialSchemaMigration,
  '0002-channel-settings': channelSettingsMigration,
  '0003-billing-schema': billingSchemaMigration,
  '0004-model-catalog-entries': modelCatalogEntriesMigration,
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
  const folder = await mkdtemp(join(tmpdir(), 'gateway-grants-migration-'));
  return { url: `sqlite:${join(folder, 'gateway.db')}`, drop: () => rm(folder, { recursive: true, force: true }) };
}

async function createPostgresTestDatabase(): Promise<TestDatabase> {
  const database = await createPostgresTestDatabaseUrl();
  if (!database) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set');
  return database;
}

/** Rows of a gateway that ran before migration 0005: two users, keys in two groups, one key disabled. */
async function seedOldDatabase(database: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db: database, provider: { getMigrations: async () => migrationsBeforeGrants } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  await database
    .insertInto('users')
    .values([
      {
        id: 'usr_ada',
        email: 'ada@example.com',
        display_name: 'Ada',
        role: 'user',
        password_hash: null,
        status: 'active',
        created_at: 1,
      },
      {
        id: 'usr_bob',
        email: 'bob@example.com',
        display_name: 'Bob',
        role: 'user',
        password_hash: null,
        status: 'active',
        created_at: 2,
      },
    ])
    .execute();
  await database
    .insertInto('model_groups')
    .values([
      { id: 'grp_default', name: 'default', description: '', models: '["*"]', created_at: 1 },
      { id: 'grp_premium', name: 'premium', description: '', models: '["*"]', created_at: 2 },
    ])
    .execute();
  const key = (id: string, userId: string, groupId: string, status: string) => ({
    id,
    user_id: userId,
    group_id: groupId,
    name: id,
    key_hash: id.padEnd(64, '0'),
    key_prefix: 'sk-gw-x',
    status,
    expires_at: null,
    created_at: 3,
  });
  await database
    .insertInto('api_keys')
    .values([
      key('key_a1', 'usr_ada', 'grp_default', 'active'),
      key('key_a2', 'usr_ada', 'grp_default', 'disabled'),
      key('key_a3', 'usr_ada', 'grp_premium', 'active'),
      key('key_b1', 'usr_bob', 'grp_default', 'active'),
    ])
    .execute();
}

function describeMigration(engine: string, createTestDatabase: () => Promise<TestDatabase>): void {
  describe(`migration 0005 on ${engine}`, () => {
    it('grants every user the groups their keys are in, so existing keys keep working, and marks disabled keys as disabled by an admin', async () => {
      const testDatabase = await createTestDatabase();
      drops.push(() => testDatabase.drop());
      const opened = createDatabase(testDatabase.url);
      drops.unshift(() => opened.database.destroy());
      await seedOldDatabase(opened.database);

      const store = createGatewayStore({ database: opened });
      await store.migrate();

      expect((await store.listUserGroupGrants()).map(({ userId, groupId }) => `${userId}:${groupId}`)).toEqual([
        'usr_ada:grp_default',
        'usr_ada:grp_premium',
        'usr_bob:grp_default',
      ]);
      expect((await store.listApiKeys()).map(({ id, status, disabledBy }) => [id, status, disabledBy])).toEqual([
        ['key_a1', 'active', null],
        ['key_a2', 'disabled', 'admin'],
        ['key_a3', 'active', null],
        ['key_b1', 'active', null],
      ]);
      // Bob never had a premium key, so he does not get premium.
      expect((await store.listUserGroups('usr_bob')).map((group) => group.name)).toEqual(['default']);
    });
  });
}

describeMigration('SQLite', createSqliteTestDatabase);

describe.skipIf(!shouldRunPostgresTests())('PostgreSQL', () => {
  describeMigration('PostgreSQL', createPostgresTestDatabase);
});
