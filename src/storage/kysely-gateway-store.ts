import { createRecordId } from '../core/create-record-id.js';
import { writeKeyChangeWithRevision } from './write-key-change-with-revision.js';
import { writeWithRevision } from './write-with-revision.js';
import { createDatabase, type CreatedDatabase } from './create-database.js';
import type { GatewayStore } from './gateway-store.js';
import { createApiKeyRepository } from './kysely-api-key-repository.js';
import { createAuditRepository } from './kysely-audit-repository.js';
import { createChannelRepository } from './kysely-channel-repository.js';
import { createGroupRepository } from './kysely-group-repository.js';
import { createModelCatalogRepository } from './kysely-model-catalog-repository.js';
import { createRoutingSnapshotRepository } from './kysely-routing-snapshot-repository.js';
import { createUserRepository } from './kysely-user-repository.js';
import type { RepositoryContext } from './repository-context.js';
import { runMigrations } from './run-migrations.js';

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

/**
 * Opens the gateway's store on SQLite or PostgreSQL, chosen by the URL; call `migrate()` before use. It composes one
 * repository per aggregate (users, groups and grants, channels, keys, catalog, audit, routing snapshot) over one
 * database, so callers that need one aggregate can take the narrower interface.
 */
export function createGatewayStore(options: GatewayStoreOptions): GatewayStore {
  const { database, dialect } = options.database ?? createDatabase(requireDatabaseUrl(options.databaseUrl));
  const ownsDatabase = options.database === undefined;
  const context: RepositoryContext = {
    database,
    clock: options.clock ?? Date.now,
    createId: options.createId ?? createRecordId,
    writeWithRoutingRevision: (work) => writeWithRevision(database, 'routing_revision', work),
    writeKeyChangeWithRoutingRevision: (work) => writeKeyChangeWithRevision(database, 'routing_revision', work),
  };

  return {
    dialect,
    migrate: () => runMigrations(database),
    close: async () => {
      if (ownsDatabase) await database.destroy();
    },
    ...createUserRepository(context),
    ...createGroupRepository(context),
    ...createChannelRepository(context),
    ...createApiKeyRepository(context),
    ...createModelCatalogRepository(context),
    ...createAuditRepository(context),
    ...createRoutingSnapshotRepository(context),
  };
}

function requireDatabaseUrl(databaseUrl: string | undefined): string {
  if (!databaseUrl) throw new Error('createGatewayStore needs a databaseUrl or an opened database');
  return databaseUrl;
}
