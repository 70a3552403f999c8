import type {
  ApiKeyAdminLimits,
  ApiKeyDisabledBy,
  AuditEntryFilter,
  AuditEntryRecord,
  NewAuditEntry,
  ApiKeyRecord,
  ChannelChanges,
  ChannelRecord,
  ModelGroupRecord,
  NewApiKey,
  NewChannel,
  NewModelGroup,
  ModelGroupChanges,
  NewUser,
  ModelCatalogEntryRecord,
  RoutingSnapshotRecords,
  UserGroupGrantRecord,
  UserRecord,
} from './store-records.js';

/**
 * What `createApiKey` does when the key's user does not hold the key's group: `grant-if-missing` grants it in the
 * same transaction (operators: the CLI, seeding scripts); `require` refuses with MissingGroupGrantError (the /api,
 * so a grant withdrawn while the key is being created is never silently given back).
 */
export type KeyGroupGrantPolicy = 'grant-if-missing' | 'require';

/**
 * The gateway's durable state. Every write to users, groups, channels, keys or catalog entries also bumps the
 * routing revision in the same transaction, so running gateways notice and reload their caches.
 */
export interface GatewayStore {
  /** `sqlite` or `postgres` */
  readonly dialect: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;

  createUser(user: NewUser): Promise<UserRecord>;
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  listUsers(): Promise<UserRecord[]>;
  /** replaces a user's password hash (re-hashing at current parameters); not a routing change */
  setUserPasswordHash(userId: string, passwordHash: string): Promise<void>;
  /** renames a user (what the console and the admin list show); not a routing change */
  setUserDisplayName(userId: string, displayName: string): Promise<void>;

  /** the groups a user holds, by name */
  listUserGroups(userId: string): Promise<ModelGroupRecord[]>;
  /** every grant, or one user's */
  listUserGroupGrants(filter?: { userId?: string }): Promise<UserGroupGrantRecord[]>;
  /** makes the user hold exactly these groups (ids); keys in withdrawn groups stop routing at the next refresh */
  setUserGroups(userId: string, groupIds: readonly string[]): Promise<void>;
  /** adds grants; returns the ids the user did not hold before */
  grantUserGroups(userId: string, groupIds: readonly string[]): Promise<string[]>;
  /** removes grants; returns the ids the user held */
  revokeUserGroups(userId: string, groupIds: readonly string[]): Promise<string[]>;

  createModelGroup(group: NewModelGroup): Promise<ModelGroupRecord>;
  findModelGroupByName(name: string): Promise<ModelGroupRecord | undefined>;
  listModelGroups(): Promise<ModelGroupRecord[]>;
  setModelGroupModels(groupId: string, models: string[]): Promise<void>;
  /** changes a group's name, description or models (a routing change); a taken name throws */
  updateModelGroup(groupId: string, changes: ModelGroupChanges): Promise<void>;
  deleteModelGroup(groupId: string): Promise<void>;

  createChannel(channel: NewChannel): Promise<ChannelRecord>;
  findChannelByName(name: string): Promise<ChannelRecord | undefined>;
  listChannels(): Promise<ChannelRecord[]>;
  updateChannel(channelId: string, changes: ChannelChanges): Promise<void>;
  deleteChannel(channelId: string): Promise<void>;

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

  listModelCatalogEntries(): Promise<ModelCatalogEntryRecord[]>;
  /** creates or replaces the entry of one model */
  putModelCatalogEntry(modelId: string, fields: Record<string, unknown>): Promise<ModelCatalogEntryRecord>;
  /** false when the model had no entry */
  deleteModelCatalogEntry(modelId: string): Promise<boolean>;

  /** appends one administrator action to the audit log (not a routing change) */
  recordAuditEntry(entry: NewAuditEntry): Promise<AuditEntryRecord>;
  /** audit entries, newest first */
  listAuditEntries(filter: AuditEntryFilter): Promise<AuditEntryRecord[]>;

  /** the current routing revision; cheap, polled by running gateways */
  readRoutingRevision(): Promise<number>;
  /** all rows the routing table is built from, with the revision they were read at */
  loadRoutingSnapshot(): Promise<RoutingSnapshotRecords>;
}
