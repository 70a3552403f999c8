import type { Selectable } from 'kysely';
import type { DatabaseExecutor } from './database-executor.js';
import type { ApiKeyAccessColumns, ApiKeysTable } from './database-schema.js';
import { readApiKeyAdminLimits, writeApiKeyAdminLimits } from './kysely-api-key-admin-limits.js';
import { insertGrants } from './kysely-group-repository.js';
import { KeyDisabledByAdminError, MissingGroupGrantError } from './gateway-store-errors.js';
import type { RepositoryContext } from './repository-context.js';
import { requireOneRow } from './require-one-row.js';
import { isForeignKeyViolation, rethrowConstraintViolation } from './rethrow-constraint-violation.js';
import type { ApiKeyAdminLimits, ApiKeyDisabledBy, ApiKeyRecord, NewApiKey } from './store-records.js';

/**
 * What `createApiKey` does when the key's user does not hold the key's group: `grant-if-missing` grants it in the
 * same transaction (operators: the CLI, seeding scripts); `require` refuses with MissingGroupGrantError (the /api,
 * so a grant withdrawn while the key is being created is never silently given back).
 */
export type KeyGroupGrantPolicy = 'grant-if-missing' | 'require';

/** API keys (their hashes, status, expiry and the limits an admin set); writes other than limits are routing changes. */
export interface ApiKeyRepository {
  /** `groupGrant` defaults to `grant-if-missing` (see KeyGroupGrantPolicy) */
  createApiKey(apiKey: NewApiKey, options?: { groupGrant?: KeyGroupGrantPolicy }): Promise<ApiKeyRecord>;
  listApiKeys(filter?: { userId?: string }): Promise<ApiKeyRecord[]>;
  /**
   * Enables or disables a key on behalf of `actor` (default `admin`). An owner can neither enable nor take over a
   * key an admin disabled: enabling it throws KeyDisabledByAdminError, disabling it again changes nothing.
   */
  setApiKeyStatus(apiKeyId: string, status: ApiKeyRecord['status'], actor?: ApiKeyDisabledBy): Promise<void>;
  deleteApiKey(apiKeyId: string): Promise<void>;
  /** renames a key or changes its expiry (Unix milliseconds, null for never); a routing change */
  updateApiKey(apiKeyId: string, changes: { name?: string; expiresAt?: number | null }): Promise<void>;
  /** the limits an administrator set on the key, with their values (see ApiKeyAdminLimits) */
  findApiKeyAdminLimits(apiKeyId: string): Promise<ApiKeyAdminLimits>;
  /** replaces the limits an administrator set on the key; not a routing change */
  setApiKeyAdminLimits(apiKeyId: string, limits: ApiKeyAdminLimits): Promise<void>;
}

/** The API keys repository over the gateway's database. */
export function createApiKeyRepository({
  database,
  clock,
  createId,
  writeKeyChangeWithRoutingRevision,
}: RepositoryContext): ApiKeyRepository {
  return {
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
      await writeKeyChangeWithRoutingRevision(async (transaction) => {
        await transaction.insertInto('api_keys').values(encodeApiKey(record)).execute();
        const held = await transaction
          .selectFrom('user_groups')
          .select('group_id')
          .where('user_id', '=', record.userId)
          .where('group_id', '=', record.groupId)
          .executeTakeFirst();
        if (held) return { result: undefined, changedApiKeyId: record.id };
        if (groupGrant === 'require') throw new MissingGroupGrantError(record.userId, record.groupId);
        await insertGrants(transaction, record.userId, [record.groupId], record.createdAt);
        // The grant also lets the user's other keys in this group route: not a change of this key alone.
        return { result: undefined, changedApiKeyId: null };
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
      await writeKeyChangeWithRoutingRevision(async (transaction) => {
        const changed = { result: undefined, changedApiKeyId: apiKeyId };
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
        if (result.numUpdatedRows > 0n) return changed;
        const row = await transaction
          .selectFrom('api_keys')
          .select('disabled_by')
          .where('id', '=', apiKeyId)
          .executeTakeFirst();
        if (!row) throw new Error(`No API key ${apiKeyId} exists`);
        // The owner disabling a key an admin already disabled changes nothing; enabling it is refused.
        if (status === 'active') throw new KeyDisabledByAdminError(apiKeyId);
        return changed;
      });
    },

    async deleteApiKey(apiKeyId) {
      await writeKeyChangeWithRoutingRevision(async (transaction) => {
        const result = await transaction.deleteFrom('api_keys').where('id', '=', apiKeyId).executeTakeFirst();
        requireOneRow(result.numDeletedRows, `API key ${apiKeyId}`);
        return { result: undefined, changedApiKeyId: apiKeyId };
      });
    },

    async updateApiKey(apiKeyId, changes) {
      const columns: { name?: string; expires_at?: number | null } = {};
      if (changes.name !== undefined) columns.name = changes.name;
      if (changes.expiresAt !== undefined) columns.expires_at = changes.expiresAt;
      await writeKeyChangeWithRoutingRevision(async (transaction) => {
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
        return { result: undefined, changedApiKeyId: apiKeyId };
      });
    },

    findApiKeyAdminLimits: (apiKeyId) => readApiKeyAdminLimits(database, apiKeyId),
    setApiKeyAdminLimits: (apiKeyId, limits) => writeApiKeyAdminLimits(database, apiKeyId, limits),
  };
}

/** Every key, or one user's, ordered by creation (then id). */
export async function listApiKeys(executor: DatabaseExecutor, userId: string | undefined): Promise<ApiKeyRecord[]> {
  let query = executor.selectFrom('api_keys').selectAll();
  if (userId !== undefined) {
    query = query.where('user_id', '=', userId);
  }
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map(decodeApiKey);
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

/** A stored key row as a record. */
export function decodeApiKey(row: Selectable<ApiKeysTable & ApiKeyAccessColumns>): ApiKeyRecord {
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
