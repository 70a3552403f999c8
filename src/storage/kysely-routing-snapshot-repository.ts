import type { DatabaseExecutor } from './database-executor.js';
import { decodeApiKey, listApiKeys } from './kysely-api-key-repository.js';
import { listChannels } from './kysely-channel-repository.js';
import { decodeModelGroup, listModelGroups, listUserGroupGrants } from './kysely-group-repository.js';
import { listModelCatalogEntries } from './kysely-model-catalog-repository.js';
import { decodeUser, listUsers } from './kysely-user-repository.js';
import { readKeyChangesSince } from './read-key-changes-since.js';
import type { RepositoryContext } from './repository-context.js';
import type { ApiKeyRoutingChanges, RoutingSnapshotRecords } from './store-records.js';

/** What running gateways read to build their routing table: the revision they poll, and all rows at once. */
export interface RoutingSnapshotRepository {
  /** the current routing revision; cheap, polled by running gateways */
  readRoutingRevision(): Promise<number>;
  /** all rows the routing table is built from, with the revision they were read at */
  loadRoutingSnapshot(): Promise<RoutingSnapshotRecords>;
  /**
   * The rows of the keys changed since `sinceRevision` when every change since was to single keys (create, rename,
   * expiry, status, delete), read at one revision; undefined when anything else changed: then load the snapshot.
   */
  loadApiKeyRoutingChanges(sinceRevision: number): Promise<ApiKeyRoutingChanges | undefined>;
}

/** The routing snapshot repository over the gateway's database (it reads the other repositories' tables). */
export function createRoutingSnapshotRepository({ database }: RepositoryContext): RoutingSnapshotRepository {
  return {
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

    loadApiKeyRoutingChanges(sinceRevision) {
      // One snapshot, as for the full load: the keys are read at exactly the revision the log was read up to.
      return database
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (transaction): Promise<ApiKeyRoutingChanges | undefined> => {
          const revision = await readRoutingRevision(transaction);
          const changedApiKeyIds = await readKeyChangesSince(transaction, 'routing_revision', sinceRevision, revision);
          if (changedApiKeyIds === undefined) return undefined;
          const apiKeys = (
            await transaction.selectFrom('api_keys').selectAll().where('id', 'in', changedApiKeyIds).execute()
          ).map(decodeApiKey);
          if (apiKeys.length === 0)
            return { revision, changedApiKeyIds, apiKeys, users: [], groups: [], userGroups: [] };
          const userIds = [...new Set(apiKeys.map((apiKey) => apiKey.userId))];
          const groupIds = [...new Set(apiKeys.map((apiKey) => apiKey.groupId))];
          const users = (await transaction.selectFrom('users').selectAll().where('id', 'in', userIds).execute()).map(
            decodeUser,
          );
          const groups = (
            await transaction.selectFrom('model_groups').selectAll().where('id', 'in', groupIds).execute()
          ).map(decodeModelGroup);
          const userGroups = (
            await transaction
              .selectFrom('user_groups')
              .selectAll()
              .where('user_id', 'in', userIds)
              .where('group_id', 'in', groupIds)
              .execute()
          ).map((row) => ({ userId: row.user_id, groupId: row.group_id, createdAt: Number(row.created_at) }));
          return { revision, changedApiKeyIds, apiKeys, users, groups, userGroups };
        });
    },
  };
}

/** The routing revision row's value; throws when migrations have not run. */
export async function readRoutingRevision(executor: DatabaseExecutor): Promise<number> {
  const row = await executor.selectFrom('routing_revision').select('revision').where('id', '=', 1).executeTakeFirst();
  if (row === undefined) {
    throw new Error('The routing_revision row is missing; run the database migrations first');
  }
  return row.revision;
}
