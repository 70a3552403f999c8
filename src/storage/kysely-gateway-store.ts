import { createRecordId } from '../core/create-record-id.js';
import { writeWithRevision } from './write-with-revision.js';
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { createDatabase, type CreatedDatabase } from './create-database.js';
import type {
  ApiKeyAccessColumns,
  ApiKeysTable,
  ChannelsTable,
  DatabaseSchema,
  ModelCatalogEntriesTable,
  ModelGroupsTable,
  UserGroupsTable,
  UsersTable,
} from './database-schema.js';
import type { GatewayStore } from './gateway-store.js';
import { readApiKeyAdminLimits, writeApiKeyAdminLimits } from './kysely-api-key-admin-limits.js';
import { KeyDisabledByAdminError, MissingGroupGrantError } from './gateway-store-errors.js';
import { runMigrations } from './run-migrations.js';
import {
  auditActorKinds,
  type ApiKeyRecord,
  type AuditEntryRecord,
  type ChannelChanges,
  type ChannelRecord,
  type ModelCatalogEntryRecord,
  type ModelGroupRecord,
  type RoutingSnapshotRecords,
  type UserGroupGrantRecord,
  type UserRecord,
} from './store-records.js';

/** How to open the store; clock and id generator are injectable so tests get predictable output. */
export interface GatewayStoreOptions {
  /** `sqlite:<path>`, `sqlite::memory:` or a `postgres://` / `postgresql://` connection string */
  databaseUrl?: string;
  /** an already opened database to share (then `close()` leaves it open for its owner) */
  database?: CreatedDatabase;
  /** current time in Unix milliseconds */
  clock?: () => number;
  /** a new unique id for a record kind; called with `usr`, `grp`, `chn` or `key` */
  createId?: (prefix: string) => string;
}

type DatabaseExecutor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** Opens the gateway's store on SQLite or PostgreSQL, chosen by the URL; call `migrate()` before use. */
export function createGatewayStore(options: GatewayStoreOptions): GatewayStore {
  const { database, dialect } = options.database ?? createDatabase(requireDatabaseUrl(options.databaseUrl));
  const ownsDatabase = options.database === undefined;
  const clock = options.clock ?? Date.now;
  const createId = options.createId ?? createRecordId;

  const writeWithRoutingRevision = <Result>(work: (transaction: Transaction<DatabaseSchema>) => Promise<Result>) =>
    writeWithRevision(database, 'routing_revision', work);

  return {
    dialect,

    migrate: () => runMigrations(database),
    close: async () => {
      if (ownsDatabase) await database.destroy();
    },

    async createUser(user) {
      const record: UserRecord = {
        id: createId('usr'),
        email: user.email,
        displayName: user.displayName,
        role: user.role,
        passwordHash: user.passwordHash,
        status: user.status ?? 'active',
        createdAt: clock(),
      };
      await writeWithRoutingRevision((transaction) =>
        transaction.insertInto('users').values(encodeUser(record)).execute(),
      ).catch(rethrowConstraintViolation);
      return record;
    },

    async findUserByEmail(email) {
      const row = await database.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      return row === undefined ? undefined : decodeUser(row);
    },

    listUsers: () => listUsers(database),

    async setUserPasswordHash(userId, passwordHash) {
      const result = await database
        .updateTable('users')
        .set({ password_hash: passwordHash })
        .where('id', '=', userId)
        .executeTakeFirst();
      requireOneRow(result.numUpdatedRows, `user ${userId}`);
    },

    async setUserDisplayName(userId, displayName) {
      const result = await database
        .updateTable('users')
        .set({ display_name: displayName })
        .where('id', '=', userId)
        .executeTakeFirst();
      requireOneRow(result.numUpdatedRows, `user ${userId}`);
    },

    async listUserGroups(userId) {
      const rows = await database
        .selectFrom('user_groups')
        .innerJoin('model_groups', 'model_groups.id', 'user_groups.group_id')
        .selectAll('model_groups')
        .where('user_groups.user_id', '=', userId)
        .orderBy('model_groups.name')
        .execute();
      return rows.map(decodeModelGroup);
    },

    listUserGroupGrants: (filter) => listUserGroupGrants(database, filter?.userId),

    async setUserGroups(userId, groupIds) {
      const wanted = [...new Set(groupIds)];
      await writeWithRoutingRevision(async (transaction) => {
        await requireUser(transaction, userId);
        let withdrawn = transaction.deleteFrom('user_groups').where('user_id', '=', userId);
        if (wanted.length > 0) withdrawn = withdrawn.where('group_id', 'not in', wanted);
        await withdrawn.execute();
        await insertGrants(transaction, userId, wanted, clock());
      }).catch(rethrowMissingGroup);
    },

    async grantUserGroups(userId, groupIds) {
      const wanted = [...new Set(groupIds)];
      return writeWithRoutingRevision(async (transaction) => {
        await requireUser(transaction, userId);
        const held = new Set((await listUserGroupGrants(transaction, userId)).map((grant) => grant.groupId));
        const added = wanted.filter((groupId) => !held.has(groupId));
        await insertGrants(transaction, userId, added, clock());
        return added;
      }).catch(rethrowMissingGroup);
    },

    async revokeUserGroups(userId, groupIds) {
      const unwanted = [...new Set(groupIds)];
      if (unwanted.length === 0) return [];
      return writeWithRoutingRevision(async (transaction) => {
        const held = new Set((await listUserGroupGrants(transaction, userId)).map((grant) => grant.groupId));
        await transaction
          .deleteFrom('user_groups')
          .where('user_id', '=', userId)
          .where('group_id', 'in', unwanted)
          .execute();
        return unwanted.filter((groupId) => held.has(groupId));
      });
    },

    async createModelGroup(group) {
      const record: ModelGroupRecord = {
        id: createId('grp'),
        name: group.name,
        description: group.description,
        models: [...group.models],
        createdAt: clock(),
      };
      await writeWithRoutingRevision((transaction) =>
        transaction.insertInto('model_groups').values(encodeModelGroup(record)).execute(),
      ).catch(rethrowConstraintViolation);
      return record;
    },

    async findModelGroupByName(name) {
      const row = await database.selectFrom('model_groups').selectAll().where('name', '=', name).executeTakeFirst();
      return row === undefined ? undefined : decodeModelGroup(row);
    },

    listModelGroups: () => listModelGroups(database),

    async setModelGroupModels(groupId, models) {
      await writeWithRoutingRevision(async (transaction) => {
        const result = await transaction
          .updateTable('model_groups')
          .set({ models: JSON.stringify(models) })
          .where('id', '=', groupId)
          .executeTakeFirst();
        requireOneRow(result.numUpdatedRows, `model group ${groupId}`);
      });
    },

    async updateModelGroup(groupId, changes) {
      const row: Partial<ModelGroupsTable> = {};
      if (changes.name !== undefined) row.name = changes.name;
      if (changes.description !== undefined) row.description = changes.description;
      if (changes.models !== undefined) row.models = JSON.stringify(changes.models);
      await writeWithRoutingRevision(async (transaction) => {
        if (Object.keys(row).length === 0) {
          const found = await transaction
            .selectFrom('model_groups')
            .select('id')
            .where('id', '=', groupId)
            .executeTakeFirst();
          requireOneRow(found === undefined ? 0n : 1n, `model group ${groupId}`);
          return;
        }
        const result = await transaction
          .updateTable('model_groups')
          .set(row)
          .where('id', '=', groupId)
          .executeTakeFirst();
        requireOneRow(result.numUpdatedRows, `model group ${groupId}`);
      }).catch(rethrowConstraintViolation);
    },

    async deleteModelGroup(groupId) {
      await writeWithRoutingRevision(async (transaction) => {
        const result = await transaction.deleteFrom('model_groups').where('id', '=', groupId).executeTakeFirst();
        requireOneRow(result.numDeletedRows, `model group ${groupId}`);
      }).catch((error: unknown) => {
        if (isForeignKeyViolation(error)) {
          throw new Error(
            `Model group ${groupId} is still used by API keys; move or delete those keys before deleting the group`,
            { cause: error },
          );
        }
        throw error;
      });
    },

    async createChannel(channel) {
      const now = clock();
      const record: ChannelRecord = {
        id: createId('chn'),
        name: channel.name,
        protocol: channel.protocol,
        preset: channel.preset,
        baseUrl: channel.baseUrl,
        encryptedSecret: channel.encryptedSecret,
        models: [...channel.models],
        modelMapping: { ...channel.modelMapping },
        settings: { ...(channel.settings ?? {}) },
        priority: channel.priority,
        weight: channel.weight,
        status: channel.status ?? 'enabled',
        createdAt: now,
        updatedAt: now,
      };
      await writeWithRoutingRevision((transaction) =>
        transaction.insertInto('channels').values(encodeChannel(record)).execute(),
      ).catch(rethrowConstraintViolation);
      return record;
    },

    async findChannelByName(name) {
      const row = await database.selectFrom('channels').selectAll().where('name', '=', name).executeTakeFirst();
      return row === undefined ? undefined : decodeChannel(row);
    },

    listChannels: () => listChannels(database),

    async updateChannel(channelId, changes) {
      await writeWithRoutingRevision(async (transaction) => {
        const result = await transaction
          .updateTable('channels')
          .set({ ...encodeChannelChanges(changes), updated_at: clock() })
          .where('id', '=', channelId)
          .executeTakeFirst();
        requireOneRow(result.numUpdatedRows, `channel ${channelId}`);
      }).catch(rethrowConstraintViolation);
    },

    async deleteChannel(channelId) {
      await writeWithRoutingRevision(async (transaction) => {
        const result = await transaction.deleteFrom('channels').where('id', '=', channelId).executeTakeFirst();
        requireOneRow(result.numDeletedRows, `channel ${channelId}`);
      });
    },

    async createApiKey(apiKey, options = {}) {
      const status = apiKey.status ?? 'active';
      const record: ApiKeyRecord = {
        id: createId('key'),
        userId: apiKey.userId,
        groupId: apiKey.groupId,
        name: apiKey.name,
        keyHash: apiKey.keyHash,
        keyPrefix: apiKey.keyPrefix,
        status,
        disabledBy: status === 'disabled' ? (apiKey.disabledBy ?? 'admin') : null,
        expiresAt: apiKey.expiresAt,
        createdAt: clock(),
      };
      const groupGrant = options.groupGrant ?? 'grant-if-missing';
      await writeWithRoutingRevision(async (transaction) => {
        await transaction.insertInto('api_keys').values(encodeApiKey(record)).execute();
        const held = await transaction
          .selectFrom('user_groups')
          .select('group_id')
          .where('user_id', '=', record.userId)
          .where('group_id', '=', record.groupId)
          .executeTakeFirst();
        if (held) return;
        if (groupGrant === 'require') throw new MissingGroupGrantError(record.userId, record.groupId);
        await insertGrants(transaction, record.userId, [record.groupId], record.createdAt);
      }).catch((error: unknown) => {
        if (isForeignKeyViolation(error)) {
          throw new Error(`User ${record.userId} or model group ${record.groupId} does not exist`, { cause: error });
        }
        rethrowConstraintViolation(error);
      });
      return record;
    },

    listApiKeys: (filter) => listApiKeys(database, filter?.userId),

    async setApiKeyStatus(apiKeyId, status, actor = 'admin') {
      await writeWithRoutingRevision(async (transaction) => {
        let update = transaction
          .updateTable('api_keys')
          .set({ status, disabled_by: status === 'disabled' ? actor : null })
          .where('id', '=', apiKeyId);
        // One conditional statement, so an admin's disable that lands between a read and a write cannot be undone.
        if (actor === 'owner')
          update = update.where((where) =>
            where.or([where('disabled_by', 'is', null), where('disabled_by', '!=', 'admin')]),
          );
        const result = await update.executeTakeFirst();
        if (result.numUpdatedRows > 0n) return;
        const row = await transaction
          .selectFrom('api_keys')
          .select('disabled_by')
          .where('id', '=', apiKeyId)
          .executeTakeFirst();
        if (!row) throw new Error(`No API key ${apiKeyId} exists`);
        // The owner disabling a key an admin already disabled changes nothing; enabling it is refused.
        if (status === 'active') throw new KeyDisabledByAdminError(apiKeyId);
      });
    },

    async deleteApiKey(apiKeyId) {
      await writeWithRoutingRevision(async (transaction) => {
        const result = await transaction.deleteFrom('api_keys').where('id', '=', apiKeyId).executeTakeFirst();
        requireOneRow(result.numDeletedRows, `API key ${apiKeyId}`);
      });
    },

    async updateApiKey(apiKeyId, changes) {
      const columns: { name?: string; expires_at?: number | null } = {};
      if (changes.name !== undefined) columns.name = changes.name;
      if (changes.expiresAt !== undefined) columns.expires_at = changes.expiresAt;
      await writeWithRoutingRevision(async (transaction) => {
        // An empty change still checks that the key exists (and bumps the revision, which is harmless).
        const result =
          Object.keys(columns).length === 0
            ? await transaction
                .selectFrom('api_keys')
                .select('id')
                .where('id', '=', apiKeyId)
                .execute()
                .then((rows) => ({ numUpdatedRows: BigInt(rows.length) }))
            : await transaction.updateTable('api_keys').set(columns).where('id', '=', apiKeyId).executeTakeFirst();
        requireOneRow(result.numUpdatedRows, `API key ${apiKeyId}`);
      });
    },

    findApiKeyAdminLimits: (apiKeyId) => readApiKeyAdminLimits(database, apiKeyId),
    setApiKeyAdminLimits: (apiKeyId, limits) => writeApiKeyAdminLimits(database, apiKeyId, limits),

    listModelCatalogEntries: () => listModelCatalogEntries(database),

    async putModelCatalogEntry(modelId, fields) {
      const row: ModelCatalogEntriesTable = { model_id: modelId, entry: JSON.stringify(fields), updated_at: clock() };
      await writeWithRoutingRevision((transaction) =>
        transaction
          .insertInto('model_catalog_entries')
          .values(row)
          .onConflict((conflict) =>
            conflict.column('model_id').doUpdateSet({ entry: row.entry, updated_at: row.updated_at }),
          )
          .execute(),
      );
      return decodeModelCatalogEntry(row);
    },

    async deleteModelCatalogEntry(modelId) {
      const result = await writeWithRoutingRevision((transaction) =>
        transaction.deleteFrom('model_catalog_entries').where('model_id', '=', modelId).executeTakeFirst(),
      );
      return result.numDeletedRows > 0n;
    },

    async recordAuditEntry(entry) {
      const record: AuditEntryRecord = { ...entry, id: createId('aud'), createdAt: clock() };
      await database
        .insertInto('audit_log')
        .values({
          id: record.id,
          created_at: record.createdAt,
          actor_user_id: record.actorUserId,
          actor_label: record.actorLabel,
          actor_kind: record.actorKind,
          actor_id: record.actorId,
          action: record.action,
          target_type: record.targetType,
          target_id: record.targetId,
          details: JSON.stringify(record.details),
        })
        .execute();
      return record;
    },

    async listAuditEntries(filter) {
      let query = database
        .selectFrom('audit_log')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(Math.max(1, Math.min(filter.limit, 500)));
      if (filter.action !== undefined) query = query.where('action', '=', filter.action);
      if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
      if (filter.before !== undefined) query = query.where('created_at', '<', filter.before);
      const rows = await query.execute();
      return rows.map((row) => ({
        id: row.id,
        createdAt: Number(row.created_at),
        actorUserId: row.actor_user_id,
        actorLabel: row.actor_label,
        actorKind: auditActorKinds.find((kind) => kind === row.actor_kind) ?? 'user',
        actorId: row.actor_id,
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        details: JSON.parse(row.details) as Record<string, unknown>,
      }));
    },

    readRoutingRevision: () => readRoutingRevision(database),

    loadRoutingSnapshot() {
      // Repeatable read gives PostgreSQL one snapshot for all six reads; SQLite transactions are
      // snapshots already (the driver ignores the isolation level), and writers are serialised.
      return database
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (transaction): Promise<RoutingSnapshotRecords> => {
          const revision = await readRoutingRevision(transaction);
          const users = await listUsers(transaction);
          const groups = await listModelGroups(transaction);
          const channels = await listChannels(transaction);
          const apiKeys = await listApiKeys(transaction, undefined);
          const catalogEntries = await listModelCatalogEntries(transaction);
          const userGroups = await listUserGroupGrants(transaction, undefined);
          return { revision, users, groups, channels, apiKeys, catalogEntries, userGroups };
        });
    },
  };
}

async function readRoutingRevision(executor: DatabaseExecutor): Promise<number> {
  const row = await executor.selectFrom('routing_revision').select('revision').where('id', '=', 1).executeTakeFirst();
  if (row === undefined) {
    throw new Error('The routing_revision row is missing; run the database migrations first');
  }
  return row.revision;
}

// Ordered by creation (then id, for equal timestamps) so lists are stable across engines.
async function listUsers(executor: DatabaseExecutor): Promise<UserRecord[]> {
  const rows = await executor.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(decodeUser);
}

async function listModelGroups(executor: DatabaseExecutor): Promise<ModelGroupRecord[]> {
  const rows = await executor.selectFrom('model_groups').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(decodeModelGroup);
}

async function listChannels(executor: DatabaseExecutor): Promise<ChannelRecord[]> {
  const rows = await executor.selectFrom('channels').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(decodeChannel);
}

async function listApiKeys(executor: DatabaseExecutor, userId: string | undefined): Promise<ApiKeyRecord[]> {
  let query = executor.selectFrom('api_keys').selectAll();
  if (userId !== undefined) {
    query = query.where('user_id', '=', userId);
  }
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map(decodeApiKey);
}

async function listUserGroupGrants(
  executor: DatabaseExecutor,
  userId: string | undefined,
): Promise<UserGroupGrantRecord[]> {
  let query = executor.selectFrom('user_groups').selectAll();
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const rows = await query.orderBy('user_id').orderBy('group_id').execute();
  return rows.map(decodeUserGroupGrant);
}

/** Adds grants the user may already hold; a concurrent grant of the same group is not an error. */
async function insertGrants(
  executor: DatabaseExecutor,
  userId: string,
  groupIds: readonly string[],
  createdAt: number,
): Promise<void> {
  if (groupIds.length === 0) return;
  const rows: UserGroupsTable[] = groupIds.map((groupId) => ({
    user_id: userId,
    group_id: groupId,
    created_at: createdAt,
  }));
  await executor
    .insertInto('user_groups')
    .values(rows)
    .onConflict((conflict) => conflict.columns(['user_id', 'group_id']).doNothing())
    .execute();
}

async function requireUser(executor: DatabaseExecutor, userId: string): Promise<void> {
  const row = await executor.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!row) throw new Error(`No user ${userId} exists`);
}

/** A grant naming a group that does not exist (or was deleted meanwhile) fails its foreign key. */
function rethrowMissingGroup(error: unknown): never {
  if (isForeignKeyViolation(error)) throw new Error('A model group to grant does not exist', { cause: error });
  throw error;
}

function decodeUserGroupGrant(row: Selectable<UserGroupsTable>): UserGroupGrantRecord {
  return { userId: row.user_id, groupId: row.group_id, createdAt: Number(row.created_at) };
}

async function listModelCatalogEntries(executor: DatabaseExecutor): Promise<ModelCatalogEntryRecord[]> {
  const rows = await executor.selectFrom('model_catalog_entries').selectAll().orderBy('model_id').execute();
  return rows.map(decodeModelCatalogEntry);
}

function decodeModelCatalogEntry(row: Selectable<ModelCatalogEntriesTable>): ModelCatalogEntryRecord {
  return {
    modelId: row.model_id,
    fields: JSON.parse(row.entry) as Record<string, unknown>,
    updatedAt: Number(row.updated_at),
  };
}

function requireOneRow(affectedRows: bigint | undefined, what: string): void {
  if (affectedRows === undefined || affectedRows === 0n) {
    throw new Error(`No ${what} exists`);
  }
}

function encodeUser(record: UserRecord): UsersTable {
  return {
    id: record.id,
    email: record.email,
    display_name: record.displayName,
    role: record.role,
    password_hash: record.passwordHash,
    status: record.status,
    created_at: record.createdAt,
  };
}

function decodeUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    passwordHash: row.password_hash,
    status: row.status,
    createdAt: row.created_at,
  };
}

function encodeModelGroup(record: ModelGroupRecord): ModelGroupsTable {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    models: JSON.stringify(record.models),
    created_at: record.createdAt,
  };
}

function decodeModelGroup(row: Selectable<ModelGroupsTable>): ModelGroupRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    models: JSON.parse(row.models) as string[],
    createdAt: row.created_at,
  };
}

function encodeChannel(record: ChannelRecord): ChannelsTable {
  return {
    id: record.id,
    name: record.name,
    protocol: record.protocol,
    preset: record.preset,
    base_url: record.baseUrl,
    encrypted_secret: record.encryptedSecret,
    models: JSON.stringify(record.models),
    model_mapping: JSON.stringify(record.modelMapping),
    settings: JSON.stringify(record.settings),
    priority: record.priority,
    weight: record.weight,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

function encodeChannelChanges(changes: ChannelChanges): Updateable<ChannelsTable> {
  const columns: Updateable<ChannelsTable> = {};
  if (changes.name !== undefined) columns.name = changes.name;
  if (changes.protocol !== undefined) columns.protocol = changes.protocol;
  if (changes.preset !== undefined) columns.preset = changes.preset;
  if (changes.baseUrl !== undefined) columns.base_url = changes.baseUrl;
  if (changes.encryptedSecret !== undefined) columns.encrypted_secret = changes.encryptedSecret;
  if (changes.models !== undefined) columns.models = JSON.stringify(changes.models);
  if (changes.modelMapping !== undefined) columns.model_mapping = JSON.stringify(changes.modelMapping);
  if (changes.settings !== undefined) columns.settings = JSON.stringify(changes.settings);
  if (changes.priority !== undefined) columns.priority = changes.priority;
  if (changes.weight !== undefined) columns.weight = changes.weight;
  if (changes.status !== undefined) columns.status = changes.status;
  return columns;
}

function decodeChannel(row: Selectable<ChannelsTable>): ChannelRecord {
  return {
    id: row.id,
    name: row.name,
    protocol: row.protocol,
    preset: row.preset,
    baseUrl: row.base_url,
    encryptedSecret: row.encrypted_secret,
    models: JSON.parse(row.models) as string[],
    modelMapping: JSON.parse(row.model_mapping) as Record<string, string>,
    settings: JSON.parse(row.settings) as Record<string, string>,
    priority: row.priority,
    weight: row.weight,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function encodeApiKey(record: ApiKeyRecord): ApiKeysTable & { disabled_by: ApiKeyRecord['disabledBy'] } {
  return {
    disabled_by: record.disabledBy,
    id: record.id,
    user_id: record.userId,
    group_id: record.groupId,
    name: record.name,
    key_hash: record.keyHash,
    key_prefix: record.keyPrefix,
    status: record.status,
    expires_at: record.expiresAt,
    created_at: record.createdAt,
  };
}

function decodeApiKey(row: Selectable<ApiKeysTable & ApiKeyAccessColumns>): ApiKeyRecord {
  return {
    disabledBy: row.disabled_by,
    id: row.id,
    userId: row.user_id,
    groupId: row.group_id,
    name: row.name,
    keyHash: row.key_hash,
    keyPrefix: row.key_prefix,
    status: row.status,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}

/** Unique columns, by PostgreSQL constraint name and by SQLite's `table.column` wording. */
const uniqueColumnMessages: ReadonlyArray<{ constraint: string; column: string; message: string }> = [
  { constraint: 'users_email_unique', column: 'users.email', message: 'A user with this email already exists' },
  {
    constraint: 'model_groups_name_unique',
    column: 'model_groups.name',
    message: 'A model group with this name already exists',
  },
  { constraint: 'channels_name_unique', column: 'channels.name', message: 'A channel with this name already exists' },
  {
    constraint: 'api_keys_key_hash_unique',
    column: 'api_keys.key_hash',
    message: 'An API key with this hash already exists',
  },
];

/** Turns a driver's unique-violation error into one that names the clashing field; rethrows anything else. */
function rethrowConstraintViolation(error: unknown): never {
  if (isUniqueViolation(error)) {
    const details = describeDriverError(error);
    const known = uniqueColumnMessages.find(
      (entry) => details.constraint === entry.constraint || details.message.includes(entry.column),
    );
    throw new Error(known?.message ?? `Unique constraint violated: ${details.message}`, { cause: error });
  }
  throw error;
}

interface DriverErrorDetails {
  code: string;
  constraint: string;
  message: string;
}

// better-sqlite3 sets `code` to e.g. SQLITE_CONSTRAINT_UNIQUE; pg sets the SQLSTATE and the constraint name.
function describeDriverError(error: unknown): DriverErrorDetails {
  if (typeof error !== 'object' || error === null) {
    return { code: '', constraint: '', message: String(error) };
  }
  const fields = error as { code?: unknown; constraint?: unknown; message?: unknown };
  return {
    code: typeof fields.code === 'string' ? fields.code : '',
    constraint: typeof fields.constraint === 'string' ? fields.constraint : '',
    message: typeof fields.message === 'string' ? fields.message : '',
  };
}

function isUniqueViolation(error: unknown): boolean {
  const { code } = describeDriverError(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

function isForeignKeyViolation(error: unknown): boolean {
  const { code } = describeDriverError(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

function requireDatabaseUrl(databaseUrl: string | undefined): string {
  if (!databaseUrl) throw new Error('createGatewayStore needs a databaseUrl or an opened database');
  return databaseUrl;
}
