import type { ApiKeyRepository } from './kysely-api-key-repository.js';
import type { AuditRepository } from './kysely-audit-repository.js';
import type { ChannelRepository } from './kysely-channel-repository.js';
import type { GroupRepository } from './kysely-group-repository.js';
import type { ModelCatalogRepository } from './kysely-model-catalog-repository.js';
import type { RoutingSnapshotRepository } from './kysely-routing-snapshot-repository.js';
import type { UserRepository } from './kysely-user-repository.js';

export type { KeyGroupGrantPolicy } from './kysely-api-key-repository.js';

/**
 * The gateway's durable state: one repository per aggregate over one database. Every write to users, groups,
 * channels, keys or catalog entries also bumps the routing revision in the same transaction, so running gateways
 * notice and reload their caches.
 */
export interface GatewayStore
  extends
    UserRepository,
    GroupRepository,
    ChannelRepository,
    ApiKeyRepository,
    ModelCatalogRepository,
    AuditRepository,
    RoutingSnapshotRepository {
  /** `sqlite` or `postgres` */
  readonly dialect: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}
