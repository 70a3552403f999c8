import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from '../../accounts/api-key-secret.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ApiKeyRecord } from '../../storage/store-records.js';
import { requireUser, type ApiCaller } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { presentApiKey } from '../api/present-api-records.js';
import type { ApiRouteContext } from './api-routes.js';

const addressSchema = z.string().refine(isAddressOrRange, { message: 'must be an IP address or a CIDR range such as 10.0.0.0/8' });
const limitSchema = z.number().int().min(0).nullable().default(null);
const createKeySchema = z.object({
  /** the model group's name or id */
  group: z.string().min(1),
  name: z.string().max(100).default('default'),
  /** Unix milliseconds, or null for never */
  expiresAt: z.number().int().positive().nullable().default(null),
  /** micro-units, or null for no cap */
  spendingCap: z.number().int().min(0).nullable().default(null),
  allowedIps: z.array(addressSchema).max(100).default([]),
  limits: z.object({ requestsPerMinute: limitSchema, tokensPerMinute: limitSchema, maxConcurrentRequests: limitSchema }).default({ requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null }),
  /** admins may create a key for another user */
  userId: z.string().optional(),
});
const listSchema = z.object({ userId: z.string().optional() });

/** Keys through the API: create (secret shown once), list, disable, enable, delete; changes reach every node on its next refresh. */
export function registerApiKeyRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { gatewayStore, billing } = api;

  async function applyChange(): Promise<void> {
    await services.routing.refresh();
    await billing.announceChange();
  }

  /** The key if the caller owns it (admins own every key); another user's key is reported as missing. */
  async function findOwnedKey(caller: ApiCaller, apiKeyId: string): Promise<ApiKeyRecord> {
    const keys = await gatewayStore.listApiKeys(caller.isAdmin ? undefined : { userId: requireUser(caller).id });
    const key = keys.find((candidate) => candidate.id === apiKeyId);
    if (!key) throw new GatewayError('not_found', 'No such API key.');
    return key;
  }

  function present(key: ApiKeyRecord) {
    const money = billing.memory.key(key.id);
    return presentApiKey(key, money && { spendingCap: money.spendingCap, spent: money.spent, allowedIps: money.allowedIpList, limits: money.limits });
  }

  app.get('/keys', async (request) => {
    const caller = request.apiCaller;
    const { userId } = parseApiInput(listSchema, request.query);
    const filterUserId = caller.isAdmin ? userId : requireUser(caller).id;
    const keys = await gatewayStore.listApiKeys(filterUserId === undefined ? undefined : { userId: filterUserId });
    return { data: keys.map(present) };
  });

  app.post('/keys', async (request, reply) => {
    const caller = request.apiCaller;
    const input = parseApiInput(createKeySchema, request.body);
    if (input.userId !== undefined && !caller.isAdmin && input.userId !== caller.user?.id) throw new GatewayError('forbidden', 'Only administrators may create keys for other users.');
    const userId = input.userId ?? requireUser(caller).id;
    const groups = await gatewayStore.listModelGroups();
    const group = groups.find((candidate) => candidate.name === input.group || candidate.id === input.group);
    if (!group) throw new GatewayError('invalid_request_error', `No model group named ${input.group}.`, { param: 'group' });
    const secret = generateApiKeySecret();
    // The secret is returned only after its limits are stored, so no one can use the key without them.
    const created = await billing.exclusive(async () => {
      const key = await gatewayStore.createApiKey({ userId, groupId: group.id, name: input.name, keyHash: hashApiKeySecret(secret), keyPrefix: displayPrefixOf(secret), expiresAt: input.expiresAt });
      await billing.store.setApiKeyBilling(key.id, { spendingCap: input.spendingCap, allowedIps: input.allowedIps, limits: input.limits });
      return key;
    });
    await applyChange();
    void reply.code(201);
    return { ...present(created), key: secret };
  });

  for (const [action, status] of [['disable', 'disabled'], ['enable', 'active']] as const) {
    app.post<{ Params: { apiKeyId: string } }>(`/keys/:apiKeyId/${action}`, async (request) => {
      const key = await findOwnedKey(request.apiCaller, request.params.apiKeyId);
      await billing.exclusive(() => gatewayStore.setApiKeyStatus(key.id, status));
      await applyChange();
      return present({ ...key, status });
    });
  }

  app.delete<{ Params: { apiKeyId: string } }>('/keys/:apiKeyId', async (request) => {
    const key = await findOwnedKey(request.apiCaller, request.params.apiKeyId);
    await billing.exclusive(() => gatewayStore.deleteApiKey(key.id));
    await applyChange();
    return { id: key.id, deleted: true };
  });
}

function isAddressOrRange(value: string): boolean {
  const [address = '', prefix, extra] = value.split('/');
  if (extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return Number.isInteger(bits) && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}
