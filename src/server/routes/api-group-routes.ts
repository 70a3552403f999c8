import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import type { ModelGroupRecord } from '../../storage/store-records.js';
import { requireAdmin } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { recordAdminAction } from '../api/record-admin-action.js';
import type { ApiRouteContext } from './api-routes.js';

const groupFields = {
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500),
  /** model ids the group may use; `*` alone means every model a channel serves */
  models: z.array(z.string().trim().min(1).max(200)).min(1).max(1000),
};
const createGroupSchema = z.object({ ...groupFields, description: groupFields.description.default('') });
const updateGroupSchema = z.object({
  name: groupFields.name.optional(),
  description: groupFields.description.optional(),
  models: groupFields.models.optional(),
});

/**
 * Model groups over HTTP for administrators: create one and change its name, description or models. Each change
 * bumps the routing revision (the store does), reaches this node at once and is audit-logged.
 */
export function registerApiGroupRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { gatewayStore, billing } = api;

  async function findGroup(groupId: string): Promise<ModelGroupRecord> {
    const group = (await gatewayStore.listModelGroups()).find((candidate) => candidate.id === groupId);
    if (!group) throw new GatewayError('not_found', 'No such model group.');
    return group;
  }

  async function requireFreeName(name: string, exceptGroupId?: string): Promise<void> {
    const existing = await gatewayStore.findModelGroupByName(name);
    if (existing && existing.id !== exceptGroupId)
      throw new GatewayError('invalid_request_error', `A group named ${name} exists already.`, { param: 'name' });
  }

  function present(group: ModelGroupRecord) {
    return { ...group, priceRatioMillionths: billing.memory.priceRatioOf(group.id) };
  }

  app.post('/groups', async (request, reply) => {
    requireAdmin(request.apiCaller);
    const input = parseApiInput(createGroupSchema, request.body);
    await requireFreeName(input.name);
    const created = await billing.exclusive(() =>
      gatewayStore.createModelGroup({
        name: input.name,
        description: input.description,
        models: [...new Set(input.models)],
      }),
    );
    await services.routing.refresh();
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'group.create',
      targetType: 'group',
      targetId: created.id,
      details: { ...input },
    });
    void reply.code(201);
    return present(created);
  });

  app.patch<{ Params: { groupId: string } }>('/groups/:groupId', async (request) => {
    requireAdmin(request.apiCaller);
    const group = await findGroup(request.params.groupId);
    const input = parseApiInput(updateGroupSchema, request.body);
    if (input.name !== undefined) await requireFreeName(input.name, group.id);
    const changes = { ...input, ...(input.models === undefined ? {} : { models: [...new Set(input.models)] }) };
    await billing.exclusive(() => gatewayStore.updateModelGroup(group.id, changes));
    await services.routing.refresh();
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'group.update',
      targetType: 'group',
      targetId: group.id,
      details: { ...changes },
    });
    return present(await findGroup(group.id));
  });
}
