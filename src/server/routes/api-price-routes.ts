import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { completeModelPrice } from '../../billing/complete-model-price.js';
import { maxPriceRatioMillionths } from '../../billing/max-price-ratio.js';
import { GatewayError } from '../../core/gateway-error.js';
import { requireAdmin } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import type { ApiRouteContext } from './api-routes.js';
import { recordAdminAction } from '../api/record-admin-action.js';

const microUnits = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const priceSchema = z.object({
  inputPerMillion: microUnits,
  cachedInputPerMillion: microUnits.optional(),
  cacheWritePerMillion: microUnits.optional(),
  // absent: 1-hour cache writes cost twice the input price (Anthropic's list rule)
  cacheWriteOneHourPerMillion: microUnits.optional(),
  outputPerMillion: microUnits,
  imagePrices: z.record(z.string(), microUnits).default({}),
  audioPerMinute: microUnits.default(0),
  videoPerSecond: microUnits.default(0),
});
const ratioSchema = z.object({ priceRatioMillionths: z.number().int().min(0).max(maxPriceRatioMillionths) });

/** GET /api/prices for everyone; admins set or reset a model's price and a group's price ratio, effective at once. */
export function registerApiPriceRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { billing, gatewayStore } = api;
  // The catalog in force, admins' entries included, supplies the default prices.
  const { routing } = services;

  app.get('/prices', async () => ({
    unit: 'micro-units; token prices per million tokens',
    data: billing.memory.listPrices(routing.catalogModels),
  }));

  app.put<{ Params: { modelId: string } }>('/prices/:modelId', async (request) => {
    requireAdmin(request.apiCaller);
    const input = parseApiInput(priceSchema, request.body);
    const price = completeModelPrice(request.params.modelId, input);
    await billing.exclusive(() => billing.store.setModelPrice(price));
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'price.set',
      targetType: 'model',
      targetId: price.modelId,
      details: { price },
    });
    await billing.announceChange();
    return price;
  });

  app.delete<{ Params: { modelId: string } }>('/prices/:modelId', async (request) => {
    requireAdmin(request.apiCaller);
    await billing.exclusive(() => billing.store.deleteModelPrice(request.params.modelId));
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'price.delete',
      targetType: 'model',
      targetId: request.params.modelId,
      details: {},
    });
    await billing.announceChange();
    const { modelId } = request.params;
    return {
      modelId,
      // null: the model now has no price at all and is refused until it gets one.
      price:
        billing.memory.priceOf(
          modelId,
          routing.catalogModels.find((model) => model.id === modelId),
        ) ?? null,
    };
  });

  app.get('/groups', async (request) => {
    requireAdmin(request.apiCaller);
    const groups = await gatewayStore.listModelGroups();
    return { data: groups.map((group) => ({ ...group, priceRatioMillionths: billing.memory.priceRatioOf(group.id) })) };
  });

  app.put<{ Params: { groupId: string } }>('/groups/:groupId/price-ratio', async (request) => {
    requireAdmin(request.apiCaller);
    const { priceRatioMillionths } = parseApiInput(ratioSchema, request.body);
    await billing
      .exclusive(() => billing.store.setGroupPriceRatio(request.params.groupId, priceRatioMillionths))
      .catch(() => {
        throw new GatewayError('not_found', 'No such model group.');
      });
    await recordAdminAction(gatewayStore, request.apiCaller, {
      action: 'group.price-ratio.set',
      targetType: 'group',
      targetId: request.params.groupId,
      details: { priceRatioMillionths },
    });
    await billing.announceChange();
    return { groupId: request.params.groupId, priceRatioMillionths };
  });
}
