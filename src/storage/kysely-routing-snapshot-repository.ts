import type { DatabaseExecutor } from './database-executor.js';
import { listApiKeys } from './kysely-api-key-repository.js';
import { listChannels } from './kysely-channel-repository.js';
import { listModelGroups, listUserGroupGrants } from './kysely-group-repository.js';
import { listModelCatalogEntries } from './kysely-model-catalog-repository.js';
import { listUsers } from './kysely-user-repository.js';
import type { RepositoryContext } from './repository-context.js';
import type { RoutingSnapshotRecords } from './store-records.js';

/** What running gateways read to build their routing table: the revision they poll, and all rows at once. */
export interface RoutingSnapshotRepository {
  /** the current routing revision; cheap, polled by running gateways */
  readRoutingRevision(): Promise<number>;
  /** all rows the routing table is built from, with the revision they were read at */
  loadRoutingSnapshot(): Promise<RoutingSnapshotRecords>;
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
