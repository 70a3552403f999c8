import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import { modelCatalogFieldsSchema } from '../../routing/apply-model-catalog-overrides.js';
import { requireAdmin } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import type { ApiRouteContext } from './api-routes.js';
import { recordAdminAction } from '../api/record-admin-action.js';

/**
 * The model catalog: everyone reads it; admins change or add a model's entry (context window, modalities, image
 * sizes, default prices, ...) and remove their change, effective on every node without a restart.
 */
export function registerApiCatalogRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { routing } = services;

  /** Reloads this node's routing at once and tells the other nodes (through Redis, when configured). */
  async function applyChange(): Promise<void> {
    await routing.refresh();
    await api.billing.announceChange();
  }

  app.get('/catalog', async () => ({ data: routing.catalogModels }));

  app.get('/catalog/entries', async (request) => {
    requireAdmin(request.apiCaller);
    return { data: await api.gatewayStore.listModelCatalogEntries() };
  });

  app.put<{ Params: { modelId: string } }>('/catalog/:modelId', async (request) => {
    requireAdmin(request.apiCaller);
    const { modelId } = request.params;
    const fields = parseApiInput(modelCatalogFieldsSchema, request.body);
    const isBuiltIn = routing.baseModels.some((model) => model.id === modelId);
    if (!isBuiltIn && (!fields.ownedBy || !fields.kind)) {
      throw new GatewayError(
        'invalid_request_error',
        `The catalog has no model ${modelId}: a new model needs ownedBy and kind.`,
        { param: fields.ownedBy ? 'kind' : 'ownedBy' },
      );
    }
    const entry = await api.gatewayStore.putModelCatalogEntry(modelId, fields);
    await recordAdminAction(api.gatewayStore, request.apiCaller, {
      action: 'catalog.put',
      targetType: 'model',
      targetId: modelId,
      details: { fields },
    });
    await applyChange();
    return { entry, model: routing.catalogModels.find((model) => model.id === modelId) };
  });

  app.delete<{ Params: { modelId: string } }>('/catalog/:modelId', async (request) => {
    requireAdmin(request.apiCaller);
    const { modelId } = request.params;
    if (!(await api.gatewayStore.deleteModelCatalogEntry(modelId)))
      throw new GatewayError('not_found', `No catalog entry was stored for ${modelId}.`);
    await recordAdminAction(api.gatewayStore, request.apiCaller, {
      action: 'catalog.delete',
      targetType: 'model',
      targetId: modelId,
      details: {},
    });
    await applyChange();
    return { modelId, model: routing.catalogModels.find((model) => model.id === modelId) ?? null };
  });
}
