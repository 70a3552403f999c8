import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/storage/create-database.js';
import type { GatewayStore } from '../../src/storage/gateway-store.js';
import { KeyDisabledByAdminError, MissingGroupGrantError } from '../../src/storage/gateway-store-errors.js';
import { createGatewayStore } from '../../src/storage/kysely-gateway-store.js';
import type { NewApiKey, NewChannel, NewModelGroup, NewUser } from '../../src/storage/store-records.js';
import { createPostgresTestDatabaseUrl, shouldRunPostgresTests } from '../helpers/postgres-test-database.js';

interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

// Later than 2^31 so a timestamp squeezed through a 32-bit integer, or left as a string, would show.
const startTime = 1_767_225_600_000;

async function createSqliteTestDatabase(): Promise<TestDatabase> {
  const folder = await mkdtemp(join(tmpdir(), 'gateway-store-'));
  return { url: `sqlite:${join(folder, 'gateway.db')}`, drop: () => rm(folder, { recursive: true, force: true }) };
}

async function createPostgresTestDatabase(): Promise<TestDatabase> {
  const database = await createPostgresTestDatabaseUrl();
  if (database === undefined) {
    throw new Error('GATEWAY_TEST_POSTGRES_URL is not set');
  }
  return database;
}

function newUser(overrides: Partial<NewUser> = {}): NewUser {
  return { email: 'ada@example.com', displayName: 'Ada', role: 'user', passwordHash: null, ...overrides };
}

function newGroup(overrides: Partial<NewModelGroup> = {}): NewModelGroup {
  return { name: 'default', description: 'Everyone', models: ['gpt-4o-mini', 'claude-sonnet-4'], ...overrides };
}

function newChannel(overrides: Partial<NewChannel> = {}): NewChannel {
  return {
    name: 'openai-main',
    protocol: 'openai',
    preset: null,
    baseUrl: 'https://api.openai.com/v1',
    encryptedSecret: 'v1:sealed',
    models: ['gpt-4o-mini'],
    modelMapping: { 'gpt-4o-mini': 'gpt-4o-mini-2024-07-18' },
    priority: 10,
    weight: 1,
    ...overrides,
  };
}

function newApiKey(userId: string, groupId: string, overrides: Partial<NewApiKey> = {}): NewApiKey {
  return {
    userId,
    groupId,
    name: 'laptop',
    keyHash: 'a'.repeat(64),
    keyPrefix: 'sk-gw-AbCd',
    expiresAt: null,
    ...overrides,
  };
}

/** The same behaviour is required of every engine, so one suite runs against each. */
function describeGatewayStore(engine: string, createTestDatabase: () => Promise<TestDatabase>): void {
  describe(`GatewayStore on ${engine}`, () => {
    let testDatabase: TestDatabase;
    let store: GatewayStore;
    let now: number;

    // Filled as resources open, so a half-failed setup still releases what it did open.
    let cleanups: Array<() => Promise<void>> = [];

    beforeEach(async () => {
      testDatabase = await createTestDatabase();
      cleanups.unshift(() => testDatabase.drop());
      now = startTime;
      store = createGatewayStore({ databaseUrl: testDatabase.url, clock: () => now });
      cleanups.unshift(() => store.close());
      await store.migrate();
    });

    afterEach(async () => {
      const pending = cleanups;
      cleanups = [];
      for (const cleanup of pending) {
        await cleanup();
      }
    });

    async function createUserAndGroup() {
      const user = await store.createUser(newUser());
      const group = await store.createModelGroup(newGroup());
      return { user, group };
    }

    it('reports its dialect', () => {
      expect(store.dialect).toBe(engine === 'SQLite' ? 'sqlite' : 'postgres');
    });

    it('runs migrations a second time without changing anything', async () => {
      await store.createUser(newUser());
      await store.migrate();
      expect(await store.readRoutingRevision()).toBe(1);
      expect(await store.listUsers()).toHaveLength(1);
    });

    it('creates, finds and lists users with prefixed ids and default status', async () => {
      const admin = await store.createUser(
        newUser({ email: 'root@example.com', role: 'admin', passwordHash: 'scrypt$c2FsdA==$aGFzaA==' }),
      );
      now += 1;
      const user = await store.createUser(newUser({ status: 'disabled' }));

      expect(admin).toEqual({
        id: expect.stringMatching(/^usr_[0-9a-f]{31}$/),
        email: 'root@example.com',
        displayName: 'Ada',
        role: 'admin',
        passwordHash: 'scrypt$c2FsdA==$aGFzaA==',
        status: 'active',
        createdAt: startTime,
      });
      expect(await store.findUserByEmail('ada@example.com')).toEqual(user);
      expect(await store.findUserByEmail('nobody@example.com')).toBeUndefined();
      expect(await store.listUsers()).toEqual([admin, user]);
    });

    it('round-trips model group model lists through JSON and replaces them', async () => {
      const group = await store.createModelGroup(newGroup({ models: ['*', 'modèle-ünïcode', 'a"quote'] }));
      expect(group.id).toMatch(/^grp_/);
      expect(await store.findModelGroupByName('default')).toEqual(group);
      expect(await store.findModelGroupByName('missing')).toBeUndefined();

      await store.setModelGroupModels(group.id, ['gpt-4o']);
      expect(await store.listModelGroups()).toEqual([{ ...group, models: ['gpt-4o'] }]);
    });

    it('creates channels with JSON models and mapping, enabled by default', async () => {
      const channel = await store.createChannel(newChannel({ preset: 'openai' }));
      expect(channel.id).toMatch(/^chn_/);
      expect(channel.status).toBe('enabled');
      expect(channel.createdAt).toBe(startTime);
      expect(channel.updatedAt).toBe(startTime);
      expect(await store.findChannelByName('openai-main')).toEqual(channel);
      expect(await store.findChannelByName('missing')).toBeUndefined();
      expect(await store.listChannels()).toEqual([channel]);
    });

    it('updates only the given channel fields and moves updated_at, not created_at', async () => {
      const channel = await store.createChannel(newChannel());
      now = startTime + 60_000;
      await store.updateChannel(channel.id, {
        status: 'disabled',
        modelMapping: { 'gpt-4o': 'gpt-4o-2024-11-20' },
        preset: 'azure',
      });

      expect(await store.findChannelByName('openai-main')).toEqual({
        ...channel,
        status: 'disabled',
        modelMapping: { 'gpt-4o': 'gpt-4o-2024-11-20' },
        preset: 'azure',
        updatedAt: startTime + 60_000,
      });
    });

    it('deletes channels', async () => {
      const channel = await store.createChannel(newChannel());
      await store.deleteChannel(channel.id);
      expect(await store.listChannels()).toEqual([]);
    });

    it('creates API keys, lists them by user and changes their status', async () => {
      const { user, group } = await createUserAndGroup();
      const other = await store.createUser(newUser({ email: 'grace@example.com' }));
      const key = await store.createApiKey(newApiKey(user.id, group.id, { expiresAt: startTime + 86_400_000 }));
      now += 1;
      const otherKey = await store.createApiKey(newApiKey(other.id, group.id, { keyHash: 'b'.repeat(64) }));

      expect(key).toEqual({
        id: expect.stringMatching(/^key_/),
        userId: user.id,
        groupId: group.id,
        name: 'laptop',
        keyHash: 'a'.repeat(64),
        keyPrefix: 'sk-gw-AbCd',
        status: 'active',
        disabledBy: null,
        expiresAt: startTime + 86_400_000,
        createdAt: startTime,
      });
      expect(await store.listApiKeys()).toEqual([key, otherKey]);
      expect(await store.listApiKeys({ userId: other.id })).toEqual([otherKey]);

      await store.setApiKeyStatus(key.id, 'disabled');
      expect(await store.listApiKeys({ userId: user.id })).toEqual([
        { ...key, status: 'disabled', disabledBy: 'admin' },
      ]);

      await store.deleteApiKey(key.id);
      expect(await store.listApiKeys()).toEqual([otherKey]);
    });

    it('renames a key and changes its expiry, bumping the routing revision, and refuses a missing key', async () => {
      const { user, group } = await createUserAndGroup();
      const key = await store.createApiKey(newApiKey(user.id, group.id, { expiresAt: startTime + 1 }));
      const revision = await store.readRoutingRevision();
      await store.updateApiKey(key.id, { name: 'renamed' });
      expect(await store.listApiKeys()).toEqual([{ ...key, name: 'renamed' }]);
      await store.updateApiKey(key.id, { expiresAt: null });
      expect(await store.listApiKeys()).toEqual([{ ...key, name: 'renamed', expiresAt: null }]);
      expect(await store.readRoutingRevision()).toBe(revision + 2);
      await expect(store.updateApiKey('key_missing', { name: 'x' })).rejects.toThrow(/No API key key_missing exists/);
    });

    it("grants, replaces and revokes a user's groups, bumping the routing revision each time", async () => {
      const { user, group } = await createUserAndGroup();
      const premium = await store.createModelGroup(newGroup({ name: 'premium' }));
      const free = await store.createModelGroup(newGroup({ name: 'free' }));
      const revision = await store.readRoutingRevision();

      expect(await store.grantUserGroups(user.id, [group.id, premium.id, group.id])).toEqual([group.id, premium.id]);
      expect(await store.grantUserGroups(user.id, [premium.id])).toEqual([]);
      expect((await store.listUserGroups(user.id)).map((held) => held.name)).toEqual(['default', 'premium']);

      await store.setUserGroups(user.id, [free.id, premium.id]);
      expect((await store.listUserGroups(user.id)).map((held) => held.name)).toEqual(['free', 'premium']);
      expect(await store.revokeUserGroups(user.id, [premium.id, group.id])).toEqual([premium.id]);
      expect(await store.listUserGroupGrants({ userId: user.id })).toEqual([
        { userId: user.id, groupId: free.id, createdAt: startTime },
      ]);
      await store.setUserGroups(user.id, []);
      expect(await store.listUserGroups(user.id)).toEqual([]);
      expect(await store.readRoutingRevision()).toBe(revision + 5);

      await expect(store.setUserGroups('usr_missing', [group.id])).rejects.toThrow('No user usr_missing exists');
      await expect(store.grantUserGroups(user.id, ['grp_missing'])).rejects.toThrow(
        'A model group to grant does not exist',
      );
    });

    it("grants a key's group to its user when asked to, and refuses the key when a grant is required", async () => {
      const { user, group } = await createUserAndGroup();
      await store.createApiKey(newApiKey(user.id, group.id));
      expect((await store.listUserGroups(user.id)).map((held) => held.id)).toEqual([group.id]);

      const other = await store.createModelGroup(newGroup({ name: 'other' }));
      const revision = await store.readRoutingRevision();
      await expect(
        store.createApiKey(newApiKey(user.id, other.id, { keyHash: 'c'.repeat(64) }), { groupGrant: 'require' }),
      ).rejects.toBeInstanceOf(MissingGroupGrantError);
      expect(await store.listApiKeys()).toHaveLength(1);
      expect(await store.readRoutingRevision()).toBe(revision);
    });

    it("removes a deleted group's grants", async () => {
      const { user, group } = await createUserAndGroup();
      await store.grantUserGroups(user.id, [group.id]);
      await store.deleteModelGroup(group.id);
      expect(await store.listUserGroupGrants()).toEqual([]);
    });

    it('lets an owner re-enable only keys they disabled themselves', async () => {
      const { user, group } = await createUserAndGroup();
      const key = await store.createApiKey(newApiKey(user.id, group.id));
      const statusOf = async () =>
        (await store.listApiKeys()).map(({ status, disabledBy }) => ({ status, disabledBy }))[0];

      await store.setApiKeyStatus(key.id, 'disabled', 'owner');
      expect(await statusOf()).toEqual({ status: 'disabled', disabledBy: 'owner' });
      await store.setApiKeyStatus(key.id, 'active', 'owner');
      expect(await statusOf()).toEqual({ status: 'active', disabledBy: null });

      await store.setApiKeyStatus(key.id, 'disabled', 'admin');
      await expect(store.setApiKeyStatus(key.id, 'active', 'owner')).rejects.toBeInstanceOf(KeyDisabledByAdminError);
      // Disabling it again as the owner must not turn it into a key the owner may enable.
      await store.setApiKeyStatus(key.id, 'disabled', 'owner');
      expect(await statusOf()).toEqual({ status: 'disabled', disabledBy: 'admin' });
      await expect(store.setApiKeyStatus(key.id, 'active', 'owner')).rejects.toBeInstanceOf(KeyDisabledByAdminError);
      await store.setApiKeyStatus(key.id, 'active', 'admin');
      expect(await statusOf()).toEqual({ status: 'active', disabledBy: null });
    });

    it('keeps the kind and id of each audit actor: signed-in user, admin token, CLI', async () => {
      const actors = [
        { actorUserId: 'usr_1', actorLabel: 'root@example.test', actorKind: 'user', actorId: null },
        { actorUserId: null, actorLabel: 'admin token ops', actorKind: 'admin_token', actorId: 'adm_1' },
        { actorUserId: null, actorLabel: 'cli alice', actorKind: 'cli', actorId: 'alice' },
      ] as const;
      for (const actor of actors)
        await store.recordAuditEntry({
          ...actor,
          action: 'key.disable',
          targetType: 'api_key',
          targetId: 'key_audited',
          details: { by: 'admin' },
        });
      const listed = await store.listAuditEntries({ targetId: 'key_audited', limit: 10 });
      expect(
        listed
          .map(({ actorUserId, actorLabel, actorKind, actorId }) => ({ actorUserId, actorLabel, actorKind, actorId }))
          .sort((a, b) => a.actorLabel.localeCompare(b.actorLabel)),
      ).toEqual([...actors].sort((a, b) => a.actorLabel.localeCompare(b.actorLabel)));
    });

    it('stores a new password hash', async () => {
      const user = await store.createUser(newUser({ passwordHash: 'scrypt$old$hash' }));
      await store.setUserPasswordHash(user.id, '$argon2id$new');
      expect((await store.findUserByEmail(user.email))?.passwordHash).toBe('$argon2id$new');
      await expect(store.setUserPasswordHash('usr_missing', 'x')).rejects.toThrow('No user usr_missing exists');
    });

    it('rejects duplicates of every unique column with a message naming it, without bumping the revision', async () => {
      const { user, group } = await createUserAndGroup();
      await store.createChannel(newChannel());
      await store.createApiKey(newApiKey(user.id, group.id));
      const revision = await store.readRoutingRevision();

      await expect(store.createUser(newUser())).rejects.toThrow('A user with this email already exists');
      await expect(store.createModelGroup(newGroup())).rejects.toThrow('A model group with this name already exists');
      await expect(store.createChannel(newChannel())).rejects.toThrow('A channel with this name already exists');
      await expect(store.createApiKey(newApiKey(user.id, group.id, { name: 'again' }))).rejects.toThrow(
        'An API key with this hash already exists',
      );
      const second = await store.createChannel(newChannel({ name: 'second' }));
      await expect(store.updateChannel(second.id, { name: 'openai-main' })).rejects.toThrow(
        'A channel with this name already exists',
      );
      expect(await store.readRoutingRevision()).toBe(revision + 1);
    });

    it('rejects an API key for a user or group that does not exist', async () => {
      const { group } = await createUserAndGroup();
      await expect(store.createApiKey(newApiKey('usr_missing', group.id))).rejects.toThrow(
        'User usr_missing or model group ' + group.id + ' does not exist',
      );
    });

    it('refuses to delete a model group that API keys still use, and allows it once they are gone', async () => {
      const { user, group } = await createUserAndGroup();
      const key = await store.createApiKey(newApiKey(user.id, group.id));
      const revision = await store.readRoutingRevision();

      await expect(store.deleteModelGroup(group.id)).rejects.toThrow(/still used by API keys/);
      expect(await store.readRoutingRevision()).toBe(revision);
      expect(await store.listModelGroups()).toHaveLength(1);

      await store.deleteApiKey(key.id);
      await store.deleteModelGroup(group.id);
      expect(await store.listModelGroups()).toEqual([]);
    });

    it('rejects changes to rows that do not exist', async () => {
      await expect(store.updateChannel('chn_missing', { weight: 2 })).rejects.toThrow('No channel chn_missing exists');
      await expect(store.deleteChannel('chn_missing')).rejects.toThrow('No channel chn_missing exists');
      await expect(store.setModelGroupModels('grp_missing', [])).rejects.toThrow('No model group grp_missing');
      await expect(store.deleteModelGroup('grp_missing')).rejects.toThrow('No model group grp_missing');
      await expect(store.setApiKeyStatus('key_missing', 'disabled')).rejects.toThrow('No API key key_missing');
      await expect(store.deleteApiKey('key_missing')).rejects.toThrow('No API key key_missing');
      expect(await store.readRoutingRevision()).toBe(0);
    });

    it('bumps the routing revision on every write and never on reads', async () => {
      const revisions: number[] = [await store.readRoutingRevision()];
      const writeThenRead = async (write: () => Promise<unknown>) => {
        await write();
        await store.listUsers();
        await store.listApiKeys();
        await store.loadRoutingSnapshot();
        revisions.push(await store.readRoutingRevision());
      };

      const user = await store.createUser(newUser());
      revisions.push(await store.readRoutingRevision());
      const group = await store.createModelGroup(newGroup());
      revisions.push(await store.readRoutingRevision());
      const channel = await store.createChannel(newChannel());
      revisions.push(await store.readRoutingRevision());
      const key = await store.createApiKey(newApiKey(user.id, group.id));
      revisions.push(await store.readRoutingRevision());
      await writeThenRead(() => store.setModelGroupModels(group.id, ['*']));
      await writeThenRead(() => store.updateChannel(channel.id, { weight: 5 }));
      await writeThenRead(() => store.setApiKeyStatus(key.id, 'disabled'));
      await writeThenRead(() => store.deleteApiKey(key.id));
      await writeThenRead(() => store.deleteChannel(channel.id));
      await writeThenRead(() => store.deleteModelGroup(group.id));

      expect(revisions).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('counts every one of many concurrent writes', async () => {
      await Promise.all(
        Array.from({ length: 12 }, (_, index) => store.createUser(newUser({ email: `user${index}@example.com` }))),
      );
      expect(await store.readRoutingRevision()).toBe(12);
    });

    it('loads a snapshot of every table with its revision', async () => {
      const { user, group } = await createUserAndGroup();
      const channel = await store.createChannel(newChannel());
      const key = await store.createApiKey(newApiKey(user.id, group.id));

      const entry = await store.putModelCatalogEntry('in-house', { ownedBy: 'acme', kind: 'chat' });

      expect(await store.loadRoutingSnapshot()).toEqual({
        revision: 5,
        users: [user],
        groups: [group],
        channels: [channel],
        apiKeys: [key],
        catalogEntries: [entry],
        userGroups: [{ userId: user.id, groupId: group.id, createdAt: startTime }],
      });
    });

    it('creates, replaces and deletes catalog entries, bumping the revision each time', async () => {
      const first = await store.putModelCatalogEntry('gpt-4o', { contextWindow: 64_000 });
      expect(first).toMatchObject({ modelId: 'gpt-4o', fields: { contextWindow: 64_000 } });
      await store.putModelCatalogEntry('gpt-4o', { maxOutputTokens: 100 });
      expect(await store.listModelCatalogEntries()).toEqual([
        expect.objectContaining({ modelId: 'gpt-4o', fields: { maxOutputTokens: 100 } }),
      ]);
      expect(await store.deleteModelCatalogEntry('gpt-4o')).toBe(true);
      expect(await store.deleteModelCatalogEntry('gpt-4o')).toBe(false);
      expect(await store.listModelCatalogEntries()).toEqual([]);
      expect(await store.readRoutingRevision()).toBe(4);
    });

    it('never shows a snapshot whose revision disagrees with its rows while writes run alongside', async () => {
      const writes = Array.from({ length: 15 }, (_, index) =>
        store.createUser(newUser({ email: `user${index}@example.com` })),
      );
      const snapshots = Array.from({ length: 15 }, () => store.loadRoutingSnapshot());
      await Promise.all(writes);

      // Each write adds one user and one revision, so a consistent snapshot has exactly as many of each.
      for (const snapshot of await Promise.all(snapshots)) {
        expect(snapshot.users).toHaveLength(snapshot.revision);
      }
      expect((await store.loadRoutingSnapshot()).revision).toBe(15);
    });

    it('returns every timestamp and the revision as JavaScript numbers', async () => {
      const { user, group } = await createUserAndGroup();
      await store.createChannel(newChannel());
      await store.createApiKey(newApiKey(user.id, group.id, { expiresAt: startTime + 1 }));

      const snapshot = await store.loadRoutingSnapshot();
      const timestamps = [
        snapshot.revision,
        ...snapshot.users.map((row) => row.createdAt),
        ...snapshot.groups.map((row) => row.createdAt),
        ...snapshot.channels.flatMap((row) => [row.createdAt, row.updatedAt, row.priority, row.weight]),
        ...snapshot.apiKeys.flatMap((row) => [row.createdAt, row.expiresAt]),
      ];
      for (const value of timestamps) {
        expect(typeof value).toBe('number');
      }
      expect(snapshot.apiKeys[0]?.expiresAt).toBe(startTime + 1);
      expect(snapshot.users[0]?.createdAt).toBe(startTime);
    });

    it('uses the injected id generator', async () => {
      const ids: string[] = [];
      const customStore = createGatewayStore({
        databaseUrl: testDatabase.url,
        clock: () => now,
        createId: (prefix) => {
          ids.push(prefix);
          return `${prefix}_${ids.length}`;
        },
      });
      try {
        const user = await customStore.createUser(newUser());
        const group = await customStore.createModelGroup(newGroup());
        const channel = await customStore.createChannel(newChannel());
        const key = await customStore.createApiKey(newApiKey(user.id, group.id));
        expect([user.id, group.id, channel.id, key.id]).toEqual(['usr_1', 'grp_2', 'chn_3', 'key_4']);
      } finally {
        await customStore.close();
      }
    });
  });
}

describeGatewayStore('SQLite', createSqliteTestDatabase);

// Locally PostgreSQL is optional; in CI shouldRunPostgresTests() is true and a missing URL fails the suite.
describe.skipIf(!shouldRunPostgresTests())('PostgreSQL', () => {
  describeGatewayStore('PostgreSQL', createPostgresTestDatabase);
});

describe('createDatabase', () => {
  it('creates the folder of a SQLite file that does not exist yet and enables WAL and foreign keys', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'gateway-create-database-'));
    const path = join(folder, 'nested', 'deeper', 'gateway.db');
    const { database, dialect } = createDatabase(`sqlite:${path}`);
    try {
      expect(dialect).toBe('sqlite');
      expect((await stat(path)).isFile()).toBe(true);
      const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database);
      const foreignKeys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database);
      expect(journal.rows[0]?.journal_mode).toBe('wal');
      expect(foreignKeys.rows[0]?.foreign_keys).toBe(1);
    } finally {
      await database.destroy();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('opens an in-memory SQLite database', async () => {
    const store = createGatewayStore({ databaseUrl: 'sqlite::memory:' });
    try {
      await store.migrate();
      expect(await store.readRoutingRevision()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('rejects a URL for an engine it does not know', () => {
    expect(() => createDatabase('mysql://localhost/gateway')).toThrow(/Unsupported database URL/);
  });
});
