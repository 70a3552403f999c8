import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createApiKeyService, type ApiKeyView } from '../../accounts/api-key-service.js';
import { isAddressOrRange, maxAllowedIps } from '../../accounts/is-address-or-range.js';
import { accountActorOfCaller } from '../api/account-actor-of-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { presentApiKey } from '../api/present-api-records.js';
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
 * Keys through the API: parse, call the key service (createApiKeyService holds the rules: ownership, grants, the cap
 * on keys per user, the operator's bounds for owners, audit, the change applied to that key alone), render.
 */
export function registerApiKeyRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const keys = createApiKeyService({
    apiKeys: api.gatewayStore,
    groups: api.gatewayStore,
    audit: api.gatewayStore,
    billing: api.billing,
    routing: services.routing,
    maxKeysPerUser: services.config.maxKeysPerUser,
    clock: services.clock,
  });

  /** A key as the console shows it: whether it works now, its money settings, when it was last used. */
  function present(view: ApiKeyView) {
    const presented = presentApiKey(view.key, view.billing, { groupGranted: view.groupGranted, now: services.clock() });
    // Unix milliseconds of the key's newest request written by the settlement batch writer, or null.
    return { ...presented, lastUsedAt: view.lastUsedAt };
  }

  app.get('/keys', async (request) => {
    const { userId } = parseApiInput(listSchema, request.query);
    const views = await keys.list(accountActorOfCaller(request.apiCaller), { userId });
    return { data: views.map(present) };
  });

  app.post('/keys', async (request, reply) => {
    const input = parseApiInput(createKeySchema, request.body);
    const created = await keys.create(accountActorOfCaller(request.apiCaller), input);
    void reply.code(201);
    return { ...present(created.view), key: created.secret };
  });

  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    app.post<{ Params: { apiKeyId: string } }>(`/keys/:apiKeyId/${action}`, async (request) =>
      present(await keys.setStatus(accountActorOfCaller(request.apiCaller), request.params.apiKeyId, status)),
    );
  }

  app.patch<{ Params: { apiKeyId: string } }>('/keys/:apiKeyId', async (request) => {
    const input = parseApiInput(updateKeySchema, request.body);
    return present(await keys.update(accountActorOfCaller(request.apiCaller), request.params.apiKeyId, input));
  });

  app.delete<{ Params: { apiKeyId: string } }>('/keys/:apiKeyId', async (request) =>
    keys.delete(accountActorOfCaller(request.apiCaller), request.params.apiKeyId),
  );
}
