import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import type { ModelGroupRecord } from '../../storage/store-records.js';
import { requireAdmin, type ApiCaller } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import type { ApiRouteContext } from './api-routes.js';
import { recordAdminAction } from '../api/record-admin-action.js';

const setGroupsSchema = z.object({
  /** names (or ids) of every group the user is to hold; the set replaces the previous one */
  groups: z.array(z.string().min(1).max(200)).max(1_000),
});

/**
 * A user's group entitlements: GET (admin, or the user themself) lists the groups the user holds with their models
 * and price ratio; PUT (admin) replaces them. Keys in a withdrawn group stop working at the next routing refresh.
 */
export function registerApiUserGroupRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { gatewayStore, billing } = api;

  /** The user if the caller may see them (admins see everyone); others are reported as missing. */
  async function requireVisibleUser(caller: ApiCaller, userId: string): Promise<string> {
    if (!caller.isAdmin && caller.user?.id !== userId) throw new GatewayError('not_found', 'No such user.');
    if (!(await billing.store.findUserById(userId))) throw new GatewayError('not_found', 'No such user.');
    return userId;
  }

  function present(userId: string, groups: ModelGroupRecord[]) {
    return {
      userId,
      data: groups.map((group) => ({
        id: group.id,
        name: group.name,
        description: group.description,
        models: group.models,
        priceRatioMillionths: billing.memory.priceRatioOf(group.id),
      })),
    };
  }

  app.get<{ Params: { userId: string } }>('/users/:userId/groups', async (request) => {
    const userId = await requireVisibleUser(request.apiCaller, request.params.userId);
    return present(userId, await gatewayStore.listUserGroups(userId));
  });

  app.put<{ Params: { userId: string } }>('/users/:userId/groups', async (request) => {
    requireAdmin(request.apiCaller);
    const userId = await requireVisibleUser(request.apiCaller, request.params.userId);
    const { groups: names } = parseApiInput(setGroupsSchema, request.body);
    const allGroups = await gatewayStore.listModelGroups();
    const groupIds = names.map((name, index) => {
      const group = allGroups.find((candidate) => candidate.name === name || candidate.id === name);
      if (!group)
        throw new GatewayError('invalid_request_error', `No model group named ${name}.`, { param: `groups[${index}]` });
      return group.id;
    });
    await billing.exclusive(() => gatewayStore.setUserGroups(userId, groupIds));
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'user.groups.set',
      targetType: 'user',
      targetId: userId,
      details: { groups: names },
    });
    await services.routing.refresh();
    // Tells other nodes (through Redis) to reload, so a withdrawn group stops working there too.
    await billing.announceChange();
    return present(userId, await gatewayStore.listUserGroups(userId));
  });
}
