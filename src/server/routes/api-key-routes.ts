import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../accounts/api-key-secret.js';
import { auditActorOfCaller } from '../../accounts/audit-actor.js';
import { changeApiKeyLimits } from '../../accounts/change-api-key-limits.js';
import { changeApiKeyStatus } from '../../accounts/change-api-key-status.js';
import { deleteApiKey } from '../../accounts/delete-api-key.js';
import { isAddressOrRange, maxAllowedIps } from '../../accounts/is-address-or-range.js';
import { planKeyLimitChange, type KeyLimitActor } from '../../accounts/plan-key-limit-change.js';
import { requireRoomForAnotherKey } from '../../accounts/require-room-for-another-key.js';
import { GatewayError } from '../../core/gateway-error.js';
import { MissingGroupGrantError } from '../../storage/gateway-store-errors.js';
import type { ApiKeyRecord, ModelGroupRecord } from '../../storage/store-records.js';
import { requireUser, type ApiCaller } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { presentApiKey } from '../api/present-api-records.js';
import { recordAdminAction } from '../api/record-admin-action.js';
import { requireKeyLimitsWithinDefaults } from '../api/require-key-limits-within-defaults.js';
import type { ApiRouteContext } from './api-routes.js';

const addressSchema = z
  .string()
  .refine(isAddressOrRange, { message: 'must be an IP address or a CIDR range such as 10.0.0.0/8' });
const limitSchema = z.number().int().min(0).nullable().default(null);
const createKeySchema = z.object({
  /** the model group's name or id */
  group: z.string().min(1),
  name: z.string().max(100).default('default'),
  /** Unix milliseconds, or null for never */
  expiresAt: z.number().int().positive().nullable().default(null),
  /** micro-units, or null for no cap */
  spendingCap: z.number().int().min(0).nullable().default(null),
  allowedIps: z.array(addressSchema).max(maxAllowedIps).default([]),
  limits: z
    .object({ requestsPerMinute: limitSchema, tokensPerMinute: limitSchema, maxConcurrentRequests: limitSchema })
    .default({ requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null }),
  /** admins may create a key for another user */
  userId: z.string().optional(),
});
const listSchema = z.object({ userId: z.string().optional() });
// PATCH: every field optional; an absent field keeps its value, null clears it where that means "none".
const optionalLimitSchema = z.number().int().min(0).nullable().optional();
const updateKeySchema = z.object({
  name: z.string().max(100).optional(),
  /** Unix milliseconds, or null for never */
  expiresAt: z.number().int().positive().nullable().optional(),
  /** micro-units, or null for no cap */
  spendingCap: z.number().int().min(0).nullable().optional(),
  allowedIps: z.array(addressSchema).max(maxAllowedIps).optional(),
  limits: z
    .object({
      requestsPerMinute: optionalLimitSchema,
      tokensPerMinute: optionalLimitSchema,
      maxConcurrentRequests: optionalLimitSchema,
    })
    .optional(),
});

/**
 * Keys through the API: create (secret shown once, only in a group the key's user holds, at most
 * GATEWAY_MAX_KEYS_PER_USER per user unless an admin creates it), list, disable, enable, delete (each
 * status change and delete audited); a change is applied to that key alone, on this node at once and on others
 * through Redis or their next revision check. An owner cannot re-enable a key an admin disabled, set limits beyond the operator's
 * defaults, nor loosen a limit an admin set (planKeyLimitChange).
 */
export function registerApiKeyRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { gatewayStore, billing } = api;

  /** Key changes are applied to the changed key alone, here and (through Redis) on every other node. */
  async function applyChange(): Promise<void> {
    await services.routing.refresh();
    await billing.announceKeyChange();
  }

  /** The key if the caller owns it (admins own every key); another user's key is reported as missing. */
  async function findOwnedKey(caller: ApiCaller, apiKeyId: string): Promise<ApiKeyRecord> {
    const keys = await gatewayStore.listApiKeys(caller.isAdmin ? undefined : { userId: requireUser(caller).id });
    const key = keys.find((candidate) => candidate.id === apiKeyId);
    if (!key) throw new GatewayError('not_found', 'No such API key.');
    return key;
  }

  /** Presents keys with whether each works now, which depends on its user's grants. */
  async function presentAll(keys: ApiKeyRecord[], userId: string | undefined) {
    const grants = await gatewayStore.listUserGroupGrants(userId === undefined ? undefined : { userId });
    const granted = new Set(grants.map((grant) => `${grant.userId} ${grant.groupId}`));
    const lastUsedTimes = await billing.store.listApiKeyLastUsedTimes(userId === undefined ? undefined : { userId });
    const now = services.clock();
    return keys.map((key) => {
      const money = billing.memory.key(key.id);
      const presented = presentApiKey(
        key,
        money && {
          spendingCap: money.spendingCap,
          spent: money.spent,
          allowedIps: money.allowedIpList,
          limits: money.limits,
        },
        { groupGranted: granted.has(`${key.userId} ${key.groupId}`), now },
      );
      // Unix milliseconds of the key's newest request written by the settlement batch writer, or null.
      return { ...presented, lastUsedAt: lastUsedTimes.get(key.id) ?? null };
    });
  }

  async function presentOne(key: ApiKeyRecord) {
    const [presented] = await presentAll([key], key.userId);
    if (!presented) throw new Error('presentAll returned no key');
    return presented;
  }

  /**
   * The group a key may be created in for `userId`: one the user holds, by name or id. Any other name, existing or
   * not, is "group not found" (404), so users cannot learn which groups exist; admins are told when a group exists
   * but is not granted.
   */
  async function findGrantedGroup(caller: ApiCaller, userId: string, nameOrId: string): Promise<ModelGroupRecord> {
    const matches = (group: ModelGroupRecord) => group.name === nameOrId || group.id === nameOrId;
    const granted = (await gatewayStore.listUserGroups(userId)).find(matches);
    if (granted) return granted;
    if (caller.isAdmin && (await gatewayStore.listModelGroups()).some(matches)) {
      throw new GatewayError(
        'invalid_request_error',
        `The user does not hold group ${nameOrId}; grant it first with PUT /api/users/${userId}/groups.`,
        { param: 'group' },
      );
    }
    throw groupNotFound();
  }

  app.get('/keys', async (request) => {
    const caller = request.apiCaller;
    const { userId } = parseApiInput(listSchema, request.query);
    const filterUserId = caller.isAdmin ? userId : requireUser(caller).id;
    const keys = await gatewayStore.listApiKeys(filterUserId === undefined ? undefined : { userId: filterUserId });
    return { data: await presentAll(keys, filterUserId) };
  });

  app.post('/keys', async (request, reply) => {
    const caller = request.apiCaller;
    const input = parseApiInput(createKeySchema, request.body);
    if (input.userId !== undefined && !caller.isAdmin && input.userId !== caller.user?.id)
      throw new GatewayError('forbidden', 'Only administrators may create keys for other users.');
    const userId = input.userId ?? requireUser(caller).id;
    const group = await findGrantedGroup(caller, userId, input.group);
    if (!caller.isAdmin) requireKeyLimitsWithinDefaults(input.limits, billing.config.keyLimits);
    const actor = actorOf(caller);
    const secret = generateApiKeySecret();
    // The secret is returned only after its limits are stored, so no one can use the key without them.
    const created = await billing
      .exclusive(async () => {
        // Counted inside the exclusive section, so parallel creations on this node cannot all pass at the cap.
        const held = await gatewayStore.listApiKeys({ userId });
        requireRoomForAnotherKey(actor, held.length, services.config.maxKeysPerUser);
        // `require`: a grant withdrawn since the check above refuses the key instead of being given back.
        const key = await gatewayStore.createApiKey(
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
        await billing.store.setApiKeyBilling(key.id, {
          spendingCap: input.spendingCap,
          allowedIps: input.allowedIps,
          limits: input.limits,
        });
        const adminLimits = planKeyLimitChange(
          actor,
          {},
          {
            expiresAt: input.expiresAt,
            spendingCap: input.spendingCap,
            allowedIps: input.allowedIps,
            ...input.limits,
          },
        );
        if (Object.keys(adminLimits).length > 0) await gatewayStore.setApiKeyAdminLimits(key.id, adminLimits);
        return key;
      })
      .catch((error: unknown) => {
        if (error instanceof MissingGroupGrantError) throw groupNotFound();
        throw error;
      });
    await applyChange();
    void reply.code(201);
    return { ...(await presentOne(created)), key: secret };
  });

  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    app.post<{ Params: { apiKeyId: string } }>(`/keys/:apiKeyId/${action}`, async (request) => {
      const caller = request.apiCaller;
      const key = await findOwnedKey(caller, request.params.apiKeyId);
      await billing.exclusive(() =>
        changeApiKeyStatus(gatewayStore, key, status, actorOf(caller), auditActorOfCaller(caller)),
      );
      await applyChange();
      return presentOne(await findOwnedKey(caller, key.id));
    });
  }

  app.patch<{ Params: { apiKeyId: string } }>('/keys/:apiKeyId', async (request) => {
    const caller = request.apiCaller;
    const key = await findOwnedKey(caller, request.params.apiKeyId);
    const input = parseApiInput(updateKeySchema, request.body);
    const limitChanges = input.limits ?? {};
    // Owners are held to the operator's bounds for the limits they change, exactly as when creating a key.
    if (!caller.isAdmin) {
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
        { gatewayStore, billingStore: billing.store },
        actorOf(caller),
        key.id,
        current && { spendingCap: current.spendingCap, allowedIps: current.allowedIpList, limits: current.limits },
        input,
      );
    });
    await applyChange();
    if (caller.isAdmin && key.userId !== caller.user?.id) {
      await recordAdminAction(gatewayStore, caller, {
        action: 'key.update',
        targetType: 'api_key',
        targetId: key.id,
        details: { userId: key.userId, ...input },
      });
    }
    return presentOne(await findOwnedKey(caller, key.id));
  });

  app.delete<{ Params: { apiKeyId: string } }>('/keys/:apiKeyId', async (request) => {
    const caller = request.apiCaller;
    const key = await findOwnedKey(caller, request.params.apiKeyId);
    await billing.exclusive(() => deleteApiKey(gatewayStore, key, actorOf(caller), auditActorOfCaller(caller)));
    await applyChange();
    return { id: key.id, deleted: true };
  });
}

/** Admin users and admin tokens act as administrators on any key; everyone else as the key's owner. */
function actorOf(caller: ApiCaller): KeyLimitActor {
  return caller.isAdmin ? 'admin' : 'owner';
}

function groupNotFound(): GatewayError {
  return new GatewayError('not_found', 'group not found', { param: 'group' });
}
