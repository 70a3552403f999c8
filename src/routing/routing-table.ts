import type { ChannelSecretDecrypter } from './channel-secret-decrypter.js';
import { isChannelProtocol, type ChannelProtocol } from '../core/channel-protocol.js';
import type { ApiKeyRoutingChanges, RoutingSnapshotRecords } from '../storage/store-records.js';
import type { CatalogModel, ModelLimits } from './catalog-model.js';
import type { ModelCatalog } from './model-catalog.js';
import { findVendorPreset } from './vendor-presets.js';

/** An enabled upstream channel, ready to send to. */
export interface RoutableChannel {
  id: string;
  name: string;
  /** checked when the table is built: a stored channel with an unknown protocol is left out */
  protocol: ChannelProtocol;
  /** base URL without a trailing slash */
  baseUrl: string;
  /** decrypted upstream secret; never logged */
  secret: string;
  priority: number;
  weight: number;
  /** label for models the catalog does not know */
  ownedBy: string;
  /** public model id -> model id sent upstream */
  modelMapping: ReadonlyMap<string, string>;
  /** protocol-specific settings (Azure `apiVersion`, Bedrock `region`, ...) */
  settings: Readonly<Record<string, string>>;
  /** the vendor preset the channel was made from (it decides which vendor fields are forwarded); null or absent when custom */
  preset?: string | null;
  /**
   * public model id -> the limits of the catalog model it is mapped to, for mappings to another model the catalog
   * knows; a public id absent here is fitted to its own catalog entry
   */
  upstreamModelLimits?: ReadonlyMap<string, ModelLimits>;
}

/** Who is calling, resolved from an API key. */
export interface KeyPrincipal {
  apiKeyId: string;
  userId: string;
  groupId: string;
  groupName: string;
  /** Unix milliseconds, or null for never */
  expiresAt: number | null;
  /** null means every served model */
  allowedModels: ReadonlySet<string> | null;
}

/** A channel left out of a table because its stored secret could not be decrypted (never the secret itself). */
export interface UndecryptableChannel {
  id: string;
  name: string;
}

/** An immutable, in-memory view of keys, groups, models and channels; the hot path reads only this. */
export class RoutingTable {
  readonly revision: number;
  /** enabled channels treated as disabled in this table: their secret does not decrypt with this gateway's key */
  readonly undecryptableChannels: readonly UndecryptableChannel[];
  /** enabled channels treated as disabled in this table: their stored protocol is none the gateway speaks */
  readonly unknownProtocolChannels: readonly UndecryptableChannel[];
  private readonly principalsByKeyHash: Map<string, KeyPrincipal>;
  /** api key id -> its hash, for the keys in `principalsByKeyHash` (so a changed key's old entry can be dropped) */
  private readonly keyHashesByApiKeyId: Map<string, string>;
  private readonly channelsByModel: Map<string, RoutableChannel[]>;
  private readonly modelsById: Map<string, CatalogModel>;

  /**
   * Builds the table from a full snapshot; or, given `previous`, from that table with the keys in `records` (an
   * ApiKeyRoutingChanges) re-read: channels and models are shared with `previous`, only the key map is copied.
   */
  constructor(records: RoutingSnapshotRecords, catalog: ModelCatalog, secretBox: ChannelSecretDecrypter);
  constructor(records: ApiKeyRoutingChanges, previous: RoutingTable);
  constructor(
    records: RoutingSnapshotRecords | ApiKeyRoutingChanges,
    catalogOrPrevious: ModelCatalog | RoutingTable,
    secretBox?: ChannelSecretDecrypter,
  ) {
    this.revision = records.revision;
    if (catalogOrPrevious instanceof RoutingTable) {
      const previous = catalogOrPrevious;
      this.channelsByModel = previous.channelsByModel;
      this.modelsById = previous.modelsById;
      this.undecryptableChannels = previous.undecryptableChannels;
      this.unknownProtocolChannels = previous.unknownProtocolChannels;
      this.principalsByKeyHash = new Map(previous.principalsByKeyHash);
      this.keyHashesByApiKeyId = new Map(previous.keyHashesByApiKeyId);
      for (const apiKeyId of 'changedApiKeyIds' in records ? records.changedApiKeyIds : []) {
        const keyHash = this.keyHashesByApiKeyId.get(apiKeyId);
        if (keyHash !== undefined) this.principalsByKeyHash.delete(keyHash);
        this.keyHashesByApiKeyId.delete(apiKeyId);
      }
      this.indexPrincipals(records);
      return;
    }
    if (!secretBox || !('channels' in records)) throw new Error('A routing table from a snapshot needs its secret box');
    this.channelsByModel = new Map();
    this.modelsById = new Map();
    this.principalsByKeyHash = new Map();
    this.keyHashesByApiKeyId = new Map();
    const leftOut = this.indexChannels(records, catalogOrPrevious, secretBox);
    this.undecryptableChannels = leftOut.undecryptable;
    this.unknownProtocolChannels = leftOut.unknownProtocol;
    this.indexPrincipals(records);
  }

  /** The caller behind a key hash, if the key and its user are active and the user holds the key's group. */
  findPrincipal(keyHash: string): KeyPrincipal | undefined {
    return this.principalsByKeyHash.get(keyHash);
  }

  /** Enabled channels serving the model, highest priority first. */
  channelsFor(modelId: string): readonly RoutableChannel[] {
    return this.channelsByModel.get(modelId) ?? [];
  }

  /** Ids of every channel this table routes to (enabled, known protocol, readable secret). */
  routedChannelIds(): ReadonlySet<string> {
    const ids = new Set<string>();
    for (const channels of this.channelsByModel.values()) for (const channel of channels) ids.add(channel.id);
    return ids;
  }

  /** The model if some enabled channel serves it and the principal's group allows it. */
  findModelFor(principal: KeyPrincipal, modelId: string): CatalogModel | undefined {
    if (principal.allowedModels && !principal.allowedModels.has(modelId)) return undefined;
    return this.modelsById.get(modelId);
  }

  /** Every model the principal may use, sorted by id. */
  listModelsFor(principal: KeyPrincipal): CatalogModel[] {
    const models: CatalogModel[] = [];
    for (const model of this.modelsById.values()) {
      if (!principal.allowedModels || principal.allowedModels.has(model.id)) models.push(model);
    }
    return models.sort((left, right) => left.id.localeCompare(right.id));
  }

  /** Every model some enabled channel serves, sorted by id (what a group's `*` stands for). */
  listServedModels(): CatalogModel[] {
    return [...this.modelsById.values()].sort((left, right) => left.id.localeCompare(right.id));
  }

  /** Indexes every enabled channel whose protocol is known and whose secret decrypts; returns the ones left out. */
  private indexChannels(
    records: RoutingSnapshotRecords,
    catalog: ModelCatalog,
    secretBox: ChannelSecretDecrypter,
  ): { undecryptable: UndecryptableChannel[]; unknownProtocol: UndecryptableChannel[] } {
    const undecryptable: UndecryptableChannel[] = [];
    const unknownProtocol: UndecryptableChannel[] = [];
    for (const record of records.channels) {
      if (record.status !== 'enabled') continue;
      // A row written before protocols were checked (or by hand) must not reach dispatch with a protocol it cannot send.
      const protocol = record.protocol;
      if (!isChannelProtocol(protocol)) {
        unknownProtocol.push({ id: record.id, name: record.name });
        continue;
      }
      const secret = decryptOrUndefined(secretBox, record.encryptedSecret);
      // One unreadable secret (a changed GATEWAY_SECRET_KEY, a corrupt row) must not stop routing for every other channel.
      if (secret === undefined) {
        undecryptable.push({ id: record.id, name: record.name });
        continue;
      }
      const channel: RoutableChannel = {
        id: record.id,
        name: record.name,
        protocol,
        baseUrl: record.baseUrl.replace(/\/+$/, ''),
        secret,
        priority: record.priority,
        weight: record.weight,
        ownedBy: (record.preset && findVendorPreset(record.preset)?.ownedBy) ?? record.preset ?? 'custom',
        modelMapping: new Map(Object.entries(record.modelMapping)),
        settings: record.settings,
        preset: record.preset,
        upstreamModelLimits: upstreamModelLimitsOf(record.modelMapping, catalog),
      };
      for (const modelId of record.models) {
        const channels = this.channelsByModel.get(modelId) ?? [];
        channels.push(channel);
        this.channelsByModel.set(modelId, channels);
        if (!this.modelsById.has(modelId)) {
          this.modelsById.set(
            modelId,
            catalog.describe(modelId, { ownedBy: channel.ownedBy, created: Math.floor(record.createdAt / 1000) }),
          );
        }
      }
    }
    for (const channels of this.channelsByModel.values())
      channels.sort((left, right) => right.priority - left.priority);
    return { undecryptable, unknownProtocol };
  }

  private indexPrincipals(records: Pick<RoutingSnapshotRecords, 'users' | 'groups' | 'userGroups' | 'apiKeys'>): void {
    const activeUsers = new Set(records.users.filter((user) => user.status === 'active').map((user) => user.id));
    const groupsById = new Map(records.groups.map((group) => [group.id, group]));
    const grants = new Set(records.userGroups.map((grant) => grantKey(grant.userId, grant.groupId)));
    for (const apiKey of records.apiKeys) {
      const group = groupsById.get(apiKey.groupId);
      if (apiKey.status !== 'active' || !group || !activeUsers.has(apiKey.userId)) continue;
      // A withdrawn grant disables the user's keys in that group.
      if (!grants.has(grantKey(apiKey.userId, apiKey.groupId))) continue;
      this.keyHashesByApiKeyId.set(apiKey.id, apiKey.keyHash);
      this.principalsByKeyHash.set(apiKey.keyHash, {
        apiKeyId: apiKey.id,
        userId: apiKey.userId,
        groupId: group.id,
        groupName: group.name,
        expiresAt: apiKey.expiresAt,
        allowedModels: group.models.includes('*') ? null : new Set(group.models),
      });
    }
  }
}

/** The limits of each model a channel maps a public id to, when that is another model the catalog knows. */
function upstreamModelLimitsOf(
  modelMapping: Readonly<Record<string, string>>,
  catalog: ModelCatalog,
): ReadonlyMap<string, ModelLimits> | undefined {
  let limits: Map<string, ModelLimits> | undefined;
  for (const [publicModelId, upstreamModelId] of Object.entries(modelMapping)) {
    const upstream = upstreamModelId === publicModelId ? undefined : catalog.find(upstreamModelId);
    if (!upstream) continue;
    limits ??= new Map();
    limits.set(publicModelId, { maxOutputTokens: upstream.maxOutputTokens, reasoning: upstream.reasoning });
  }
  return limits;
}

function grantKey(userId: string, groupId: string): string {
  return `${userId}\u0000${groupId}`;
}

function decryptOrUndefined(secretBox: ChannelSecretDecrypter, sealed: string): string | undefined {
  try {
    return secretBox.decrypt(sealed);
  } catch {
    return undefined;
  }
}
