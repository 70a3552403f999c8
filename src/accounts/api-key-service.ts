import type { BillingConfig } from '../billing/billing-config.js';
import type { BillingMemory } from '../billing/billing-memory.js';
import { GatewayError } from '../core/gateway-error.js';
import type { ApiKeyBillingRecord, RequestLimits } from '../storage/billing-records.js';
import type { BillingStore } from '../storage/billing-store.js';
import { MissingGroupGrantError } from '../storage/gateway-store-errors.js';
import type { ApiKeyRepository } from '../storage/kysely-api-key-repository.js';
import type { AuditRepository } from '../storage/kysely-audit-repository.js';
import type { GroupRepository } from '../storage/kysely-group-repository.js';
import type { ApiKeyAdminLimits, ApiKeyRecord, ModelGroupRecord } from '../storage/store-records.js';
import { requireActingUser, requireAdministrator, type AccountActor } from './account-actor.js';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from './api-key-secret.js';
import { changeApiKeyLimits, type ApiKeyChanges } from './change-api-key-limits.js';
import { changeApiKeyStatus } from './change-api-key-status.js';
import { deleteApiKey } from './delete-api-key.js';
import { planKeyLimitChange, type KeyLimitActor } from './plan-key-limit-change.js';
import { requireKeyLimitsWithinDefaults } from './require-key-limits-within-defaults.js';
import { requireRoomForAnotherKey } from './require-room-for-another-key.js';

/** What the key service needs of billing: its writer's exclusive section, key settings, and the key-change notice. */
export interface ApiKeyBilling {
  readonly config: Pick<BillingConfig, 'keyLimits'>;
  readonly memory: Pick<BillingMemory, 'key'>;
  readonly store: Pick<BillingStore, 'setApiKeyBilling' | 'listApiKeyLastUsedTimes'>;
  exclusive<Result>(work: () => Promise<Result>): Promise<Result>;
  /** re-reads the keys changed since this node's revision (no full reload) and tells the other nodes */
  announceKeyChange(): Promise<void>;
}

/** The narrow dependencies of the key service. */
export interface ApiKeyServiceDependencies {
  apiKeys: ApiKeyRepository;
  groups: Pick<GroupRepository, 'listUserGroups' | 'listModelGroups' | 'listUserGroupGrants' | 'grantUserGroups'>;
  audit: Pick<AuditRepository, 'recordAuditEntry'>;
  billing: ApiKeyBilling;
  /** the routing table of this process; its refresh re-reads changed keys alone (the CLI has none: a no-op) */
  routing: { refresh(): Promise<void> };
  /** GATEWAY_MAX_KEYS_PER_USER; 0 = no cap */
  maxKeysPerUser: number;
  /** Unix milliseconds now */
  clock: () => number;
}

/** One key as the service reads it: the record, its money settings, whether its user holds its group, last use. */
export interface ApiKeyView {
  key: ApiKeyRecord;
  /** spending cap, spend, allow-list and limits in this node's memory; undefined before the first reload saw the key */
  billing: Omit<ApiKeyBillingRecord, 'apiKeyId'> | undefined;
  /** whether the key's user holds the key's group (a key outside its user's groups does not route) */
  groupGranted: boolean;
  /** Unix milliseconds of the key's newest request written by the settlement batch writer, or null */
  lastUsedAt: number | null;
}

/** A new key's settings; the group by name or id. */
export interface NewApiKeyInput {
  group: string;
  name: string;
  /** Unix milliseconds, or null for never */
  expiresAt: number | null;
  /** micro-units, or null for no cap */
  spendingCap: number | null;
  allowedIps: string[];
  limits: RequestLimits;
  /** whose key; another user's only for administrators (default: the acting user) */
  userId?: string | undefined;
  /** administrators only: grant the group when the user does not hold it (the CLI), instead of refusing */
  grantGroupIfMissing?: boolean;
}

/** A created key: its view, the secret (shown once) and whether its group was granted for it. */
export interface CreatedApiKey {
  view: ApiKeyView;
  secret: string;
  grantedGroup: boolean;
}

/** API keys for the /api and the CLI alike: who may see, create, change and delete which key, and what it may hold. */
export interface ApiKeyService {
  /** the actor's keys; an administrator sees every key, or one user's with `userId` */
  list(actor: AccountActor, filter: { userId?: string | undefined }): Promise<ApiKeyView[]>;
  /** one key the actor owns (administrators own every key), with the bounds an administrator set; else 404 */
  show(actor: AccountActor, apiKeyId: string): Promise<ApiKeyView & { adminLimits: ApiKeyAdminLimits }>;
  create(actor: AccountActor, input: NewApiKeyInput): Promise<CreatedApiKey>;
  setStatus(actor: AccountActor, apiKeyId: string, status: ApiKeyRecord['status']): Promise<ApiKeyView>;
  update(actor: AccountActor, apiKeyId: string, changes: ApiKeyChanges): Promise<ApiKeyView>;
  delete(actor: AccountActor, apiKeyId: string): Promise<{ id: string; deleted: true }>;
  /**
   * Disables every active key of `userId` as its owner (after a password change), each audited, through the same
   * key-by-key change as `setStatus`; returns how many were disabled.
   */
  disableActiveKeysOf(actor: AccountActor, userId: string): Promise<number>;
}

/**
 * The key service. Rules held here once: an owner sees and changes only their keys (another's is "not found"); a key
 * is created only in a group its user holds (administrators may grant it with `grantGroupIfMissing`), at most
 * GATEWAY_MAX_KEYS_PER_USER per user unless an administrator creates it, with limits within the operator's defaults
 * for owners; an owner cannot enable a key an administrator disabled nor loosen a bound an administrator set; every
 * create, status change, update and delete is audited with the actor; each change is applied to that key alone,
 * on this node at once and on others through Redis or their next revision check.
 */
export function createApiKeyService(dependencies: ApiKeyServiceDependencies): ApiKeyService {
  const { apiKeys, groups, audit, billing, routing } = dependencies;

  async function applyChange(): Promise<void> {
    await routing.refresh();
    await billing.announceKeyChange();
  }

  async function findOwnedKey(actor: AccountActor, apiKeyId: string): Promise<ApiKeyRecord> {
    const keys = await apiKeys.listApiKeys(actor.isAdmin ? undefined : { userId: requireActingUser(actor).id });
    const key = keys.find((candidate) => candidate.id === apiKeyId);
    if (!key) throw new GatewayError('not_found', 'No such API key.');
    return key;
  }

  async function viewAll(keys: ApiKeyRecord[], userId: string | undefined): Promise<ApiKeyView[]> {
    const filter = userId === undefined ? undefined : { userId };
    const grants = await groups.listUserGroupGrants(filter);
    const granted = new Set(grants.map((grant) => `${grant.userId} ${grant.groupId}`));
    const lastUsedTimes = await billing.store.listApiKeyLastUsedTimes(filter);
    return keys.map((key) => {
      const money = billing.memory.key(key.id);
      return {
        key,
        billing: money && {
          spendingCap: money.spendingCap,
          spent: money.spent,
          allowedIps: money.allowedIpList,
          limits: money.limits,
        },
        groupGranted: granted.has(`${key.userId} ${key.groupId}`),
        lastUsedAt: lastUsedTimes.get(key.id) ?? null,
      };
    });
  }

  async function viewOne(key: ApiKeyRecord): Promise<ApiKeyView> {
    const [view] = await viewAll([key], key.userId);
    if (!view) throw new Error('viewAll returned no key');
    return view;
  }

  /**
   * The group a key may be created in: one the user holds, by name or id. Any other name, existing or not, is
   * "group not found" (404), so users cannot learn which groups exist; administrators are told when a group exists
   * but is not granted, or have it granted with `grantGroupIfMissing`.
   */
  async function findKeyGroup(
    actor: AccountActor,
    userId: string,
    nameOrId: string,
    grantGroupIfMissing: boolean,
  ): Promise<ModelGroupRecord> {
    const matches = (group: ModelGroupRecord) => group.name === nameOrId || group.id === nameOrId;
    const granted = (await groups.listUserGroups(userId)).find(matches);
    if (granted) return granted;
    const existing = actor.isAdmin ? (await groups.listModelGroups()).find(matches) : undefined;
    if (existing && grantGroupIfMissing) return existing;
    if (existing) {
      throw new GatewayError(
        'invalid_request_error',
        `The user does not hold group ${nameOrId}; grant it first with PUT /api/users/${userId}/groups.`,
        { param: 'group' },
      );
    }
    throw groupNotFound();
  }

  const service: ApiKeyService = {
    async list(actor, filter) {
      const userId = actor.isAdmin ? filter.userId : requireActingUser(actor).id;
      const keys = await apiKeys.listApiKeys(userId === undefined ? undefined : { userId });
      return viewAll(keys, userId);
    },

    async show(actor, apiKeyId) {
      const key = await findOwnedKey(actor, apiKeyId);
      return { ...(await viewOne(key)), adminLimits: await apiKeys.findApiKeyAdminLimits(key.id) };
    },

    async create(actor, input) {
      if (input.userId !== undefined && !actor.isAdmin && input.userId !== actor.user?.id)
        throw new GatewayError('forbidden', 'Only administrators may create keys for other users.');
      const grantGroupIfMissing = input.grantGroupIfMissing ?? false;
      if (grantGroupIfMissing) requireAdministrator(actor);
      const userId = input.userId ?? requireActingUser(actor).id;
      const group = await findKeyGroup(actor, userId, input.group, grantGroupIfMissing);
      if (!actor.isAdmin) requireKeyLimitsWithinDefaults(input.limits, billing.config.keyLimits);
      const limitActor = limitActorOf(actor);
      const secret = generateApiKeySecret();
      // The secret is returned only after its limits are stored, so no one can use the key without them.
      const { key, grantedGroup } = await billing
        .exclusive(async () => {
          // Counted inside the exclusive section, so parallel creations on this node cannot all pass at the cap.
          const held = await apiKeys.listApiKeys({ userId });
          requireRoomForAnotherKey(limitActor, held.length, dependencies.maxKeysPerUser);
          const newlyGranted = grantGroupIfMissing
            ? (await groups.grantUserGroups(userId, [group.id])).length > 0
            : false;
          // `require`: a grant withdrawn since the check above refuses the key instead of being given back.
          const created = await apiKeys.createApiKey(
            {
              userId,
              groupId: group.id,
              name: input.name,
              keyHash: hashApiKeySecret(secret),
              keyPrefix: displayPrefixOf(secret),
              expiresAt: input.expiresAt,
            },
            { groupGrant: 'require' },
          );
          await billing.store.setApiKeyBilling(created.id, {
            spendingCap: input.spendingCap,
            allowedIps: input.allowedIps,
            limits: input.limits,
          });
          const adminLimits = planKeyLimitChange(
            limitActor,
            {},
            {
              expiresAt: input.expiresAt,
              spendingCap: input.spendingCap,
              allowedIps: input.allowedIps,
              ...input.limits,
            },
          );
          if (Object.keys(adminLimits).length > 0) await apiKeys.setApiKeyAdminLimits(created.id, adminLimits);
          await audit.recordAuditEntry({
            ...actor.audit,
            action: 'key.create',
            targetType: 'api_key',
            targetId: created.id,
            details: {
              userId,
              group: group.name,
              name: created.name,
              expiresAt: created.expiresAt,
              by: limitActor,
              grantedGroup: newlyGranted,
            },
          });
          return { key: created, grantedGroup: newlyGranted };
        })
        .catch((error: unknown) => {
          if (error instanceof MissingGroupGrantError) throw groupNotFound();
          throw error;
        });
      await applyChange();
      return { view: await viewOne(key), secret, grantedGroup };
    },

    async setStatus(actor, apiKeyId, status) {
      const key = await findOwnedKey(actor, apiKeyId);
      await billing.exclusive(() =>
        changeApiKeyStatus(apiKeysAndAudit(), key, status, limitActorOf(actor), actor.audit),
      );
      await applyChange();
      return viewOne(await findOwnedKey(actor, key.id));
    },

    async update(actor, apiKeyId, changes) {
      const key = await findOwnedKey(actor, apiKeyId);
      const limitChanges = changes.limits ?? {};
      // Owners are held to the operator's bounds for the limits they change, exactly as when creating a key.
      if (!actor.isAdmin) {
        requireKeyLimitsWithinDefaults(
          {
            requestsPerMinute: limitChanges.requestsPerMinute ?? null,
            tokensPerMinute: limitChanges.tokensPerMinute ?? null,
            maxConcurrentRequests: limitChanges.maxConcurrentRequests ?? null,
          },
          billing.config.keyLimits,
        );
      }
      await billing.exclusive(() => {
        const current = billing.memory.key(key.id);
        return changeApiKeyLimits(
          { gatewayStore: apiKeys, billingStore: billing.store },
          limitActorOf(actor),
          key.id,
          current && { spendingCap: current.spendingCap, allowedIps: current.allowedIpList, limits: current.limits },
          changes,
        );
      });
      await applyChange();
      // An administrator's change to someone else's key is an administrator action; an owner's own edit is not.
      if (actor.isAdmin && key.userId !== actor.user?.id) {
        await audit.recordAuditEntry({
          ...actor.audit,
          action: 'key.update',
          targetType: 'api_key',
          targetId: key.id,
          details: { userId: key.userId, ...changes },
        });
      }
      return viewOne(await findOwnedKey(actor, key.id));
    },

    async delete(actor, apiKeyId) {
      const key = await findOwnedKey(actor, apiKeyId);
      await billing.exclusive(() => deleteApiKey(apiKeysAndAudit(), key, limitActorOf(actor), actor.audit));
      await applyChange();
      return { id: key.id, deleted: true };
    },

    async disableActiveKeysOf(actor, userId) {
      if (!actor.isAdmin && actor.user?.id !== userId)
        throw new GatewayError('forbidden', "Only administrators may disable another user's keys.");
      const activeKeys = (await apiKeys.listApiKeys({ userId })).filter((key) => key.status === 'active');
      if (activeKeys.length === 0) return 0;
      // As their owner: the user may enable them again once they hold the new password.
      await billing.exclusive(async () => {
        for (const key of activeKeys)
          await changeApiKeyStatus(apiKeysAndAudit(), key, 'disabled', 'owner', actor.audit);
      });
      await applyChange();
      return activeKeys.length;
    },
  };

  /** The writes changeApiKeyStatus and deleteApiKey make: key status and deletion, and their audit entry. */
  function apiKeysAndAudit() {
    return {
      setApiKeyStatus: (...status: Parameters<ApiKeyRepository['setApiKeyStatus']>) =>
        apiKeys.setApiKeyStatus(...status),
      deleteApiKey: (apiKeyId: string) => apiKeys.deleteApiKey(apiKeyId),
      recordAuditEntry: (entry: Parameters<AuditRepository['recordAuditEntry']>[0]) => audit.recordAuditEntry(entry),
    };
  }

  return service;
}

/** Admin users, admin tokens and the CLI act as administrators on any key; everyone else as the key's owner. */
function limitActorOf(actor: AccountActor): KeyLimitActor {
  return actor.isAdmin ? 'admin' : 'owner';
}

function groupNotFound(): GatewayError {
  return new GatewayError('not_found', 'group not found', { param: 'group' });
}
