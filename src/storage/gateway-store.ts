import type {
  ApiKeyRecord,
  ChannelChanges,
  ChannelRecord,
  ModelGroupRecord,
  NewApiKey,
  NewChannel,
  NewModelGroup,
  NewUser,
  ModelCatalogEntryRecord,
  RoutingSnapshotRecords,
  UserRecord,
} from './store-records.js';

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

  createModelGroup(group: NewModelGroup): Promise<ModelGroupRecord>;
  findModelGroupByName(name: string): Promise<ModelGroupRecord | undefined>;
  listModelGroups(): Promise<ModelGroupRecord[]>;
  setModelGroupModels(groupId: string, models: string[]): Promise<void>;
  deleteModelGroup(groupId: string): Promise<void>;

  createChannel(channel: NewChannel): Promise<ChannelRecord>;
  findChannelByName(name: string): Promise<ChannelRecord | undefined>;
  listChannels(): Promise<ChannelRecord[]>;
  updateChannel(channelId: string, changes: ChannelChanges): Promise<void>;
  deleteChannel(channelId: string): Promise<void>;

  createApiKey(apiKey: NewApiKey): Promise<ApiKeyRecord>;
  listApiKeys(filter?: { userId?: string }): Promise<ApiKeyRecord[]>;
  setApiKeyStatus(apiKeyId: string, status: ApiKeyRecord['status']): Promise<void>;
  deleteApiKey(apiKeyId: string): Promise<void>;

  listModelCatalogEntries(): Promise<ModelCatalogEntryRecord[]>;
  /** creates or replaces the entry of one model */
  putModelCatalogEntry(modelId: string, fields: Record<string, unknown>): Promise<ModelCatalogEntryRecord>;
  /** false when the model had no entry */
  deleteModelCatalogEntry(modelId: string): Promise<boolean>;

  /** the current routing revision; cheap, polled by running gateways */
  readRoutingRevision(): Promise<number>;
  /** all rows the routing table is built from, with the revision they were read at */
  loadRoutingSnapshot(): Promise<RoutingSnapshotRecords>;
}
