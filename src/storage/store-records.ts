/** Row shapes the rest of the gateway sees; timestamps are Unix milliseconds. */
import type { AuditAction } from './audit-actions.js';

/** A person who owns keys; `admin` may manage channels, groups and other users. */
export interface UserRecord {
  id: string;
  email: string;
  displayName: string;
  role: 'admin' | 'user';
  /** PHC-format argon2id hash (`$argon2id$...`), a legacy `scrypt$<salt base64>$<hash base64>`, or null for social-only accounts */
  passwordHash: string | null;
  status: 'active' | 'disabled';
  createdAt: number;
}

/** A named set of models; every API key is bound to exactly one group. */
export interface ModelGroupRecord {
  id: string;
  name: string;
  description: string;
  /** model ids this group may use; the single entry `*` means every model a channel serves */
  models: string[];
  createdAt: number;
}

/** An upstream account: where to send requests for some models and with which secret. */
export interface ChannelRecord {
  id: string;
  name: string;
  /** wire protocol spoken by the upstream, e.g. `openai` */
  protocol: string;
  /** vendor preset this channel was created from (`openai`, `deepseek`, ...), or null for a custom one */
  preset: string | null;
  /** upstream base URL including its version prefix, e.g. `https://api.openai.com/v1` */
  baseUrl: string;
  /** the upstream secret, encrypted with the gateway's secret key (see accounts/secret-box) */
  encryptedSecret: string;
  /** public model ids this channel serves */
  models: string[];
  /** public model id -> model id sent upstream; models absent here are sent unchanged */
  modelMapping: Record<string, string>;
  /** protocol-specific settings, e.g. Azure `apiVersion`, Bedrock `region`, Anthropic `apiVersion` */
  settings: Record<string, string>;
  /** higher priority channels are tried first */
  priority: number;
  /** relative share of traffic among channels of equal priority; 0 means only as a fallback */
  weight: number;
  status: 'enabled' | 'disabled';
  createdAt: number;
  updatedAt: number;
}

/** An API key; only the SHA-256 of the secret is stored. */
export interface ApiKeyRecord {
  id: string;
  userId: string;
  groupId: string;
  name: string;
  /** lowercase hex SHA-256 of the full key string */
  keyHash: string;
  /** the first characters of the key, safe to show in lists, e.g. `sk-gw-AbCd` */
  keyPrefix: string;
  status: 'active' | 'disabled';
  /** who disabled the key: an owner may re-enable only keys they disabled themselves; null while active */
  disabledBy: ApiKeyDisabledBy | null;
  /** Unix milliseconds after which the key stops working, or null for never */
  expiresAt: number | null;
  createdAt: number;
}

/** Everything the in-memory routing table needs, read in one go. */
export interface RoutingSnapshotRecords {
  revision: number;
  users: UserRecord[];
  groups: ModelGroupRecord[];
  channels: ChannelRecord[];
  apiKeys: ApiKeyRecord[];
  catalogEntries: ModelCatalogEntryRecord[];
  /** which user holds which group; keys route only while their user holds their group */
  userGroups: UserGroupGrantRecord[];
}

/**
 * What changed in routing since a revision when every change was to single API keys: the rows those keys route by
 * (keys, their users and groups, and the grants among them), read at `revision`. A changed key missing from `apiKeys`
 * was deleted.
 */
export interface ApiKeyRoutingChanges {
  revision: number;
  changedApiKeyIds: string[];
  apiKeys: ApiKeyRecord[];
  users: UserRecord[];
  groups: ModelGroupRecord[];
  userGroups: UserGroupGrantRecord[];
}

/**
 * The limits an administrator put on a key, each with the value the administrator set; an absent limit was not set by
 * an administrator (or was lifted by one). The key's owner may tighten these, never loosen them.
 */
export interface ApiKeyAdminLimits {
  /** Unix milliseconds after which the key stops working */
  expiresAt?: number;
  /** micro-units the key may spend in total */
  spendingCap?: number;
  /** IP addresses or CIDR ranges the key may be used from; never empty */
  allowedIps?: string[];
  /** positive: 0 (unlimited) and null (the default) are no administrator bound */
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  maxConcurrentRequests?: number;
}

/** Who changed a key's status: its `owner` or an `admin` (admin users, admin tokens and the CLI). */
export type ApiKeyDisabledBy = 'owner' | 'admin';

/** A user's entitlement to a model group: the user may create keys in it, and those keys route. */
export interface UserGroupGrantRecord {
  userId: string;
  groupId: string;
  /** Unix milliseconds */
  createdAt: number;
}

/** An admin's change to one model of the catalog: the fields it sets, validated when written. */
export interface ModelCatalogEntryRecord {
  modelId: string;
  fields: Record<string, unknown>;
  /** Unix milliseconds */
  updatedAt: number;
}

export type NewUser = Omit<UserRecord, 'id' | 'createdAt' | 'status'> & { status?: UserRecord['status'] };
export type NewModelGroup = Omit<ModelGroupRecord, 'id' | 'createdAt'>;
/** The fields of a model group an edit may change; absent fields keep their value. */
export type ModelGroupChanges = Partial<NewModelGroup>;
export type NewChannel = Omit<ChannelRecord, 'id' | 'createdAt' | 'updatedAt' | 'status' | 'settings'> & {
  status?: ChannelRecord['status'];
  settings?: ChannelRecord['settings'];
};
export type ChannelChanges = Partial<Omit<ChannelRecord, 'id' | 'createdAt' | 'updatedAt'>>;
export type NewApiKey = Omit<ApiKeyRecord, 'id' | 'createdAt' | 'status' | 'disabledBy'> & {
  status?: ApiKeyRecord['status'];
  disabledBy?: ApiKeyRecord['disabledBy'];
};

/** One administrator action, as the audit log keeps it. */
export interface AuditEntryRecord {
  id: string;
  /** Unix milliseconds */
  createdAt: number;
  /** the acting user, or null for an admin token or the CLI */
  actorUserId: string | null;
  /** who acted, for display: an email, `admin token <name>` or `cli <OS user>` */
  actorLabel: string;
  /** how the actor acted: signed in (`user`), with an admin token, on the command line (`cli`), or a `webhook` */
  actorKind: AuditActorKind;
  /** the admin token's id or the CLI's OS user name; null for a signed-in user (see actorUserId) */
  actorId: string | null;
  /** dotted verb, e.g. `user.credit`, `user.groups.set`, `channel.update`, `order.recheck` */
  action: string;
  /** kind of record acted on, e.g. `user`, `channel`, `order` */
  targetType: string;
  targetId: string | null;
  /** what changed; never a secret */
  details: Record<string, unknown>;
}

/** An audit entry to append: its action must be one of `auditActions`. */
export type NewAuditEntry = Omit<AuditEntryRecord, 'id' | 'createdAt' | 'action'> & { action: AuditAction };

/** Who writes the audit log: a signed-in user, an admin token, the gateway's command line, or a payment webhook. */
export const auditActorKinds = ['user', 'admin_token', 'cli', 'webhook'] as const;
/** One of `auditActorKinds`. */
export type AuditActorKind = (typeof auditActorKinds)[number];

/** Which audit entries to list, newest first. */
export interface AuditEntryFilter {
  /** only this action */
  action?: string;
  /** only entries about this record */
  targetId?: string;
  /** only entries created before this Unix millisecond (the previous page's last `createdAt`) */
  before?: number;
  /** at most this many (1 to 500) */
  limit: number;
}
