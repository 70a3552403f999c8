import type { FastifyInstance } from 'fastify';
import { applyPriceRatio } from '../../billing/apply-price-ratio.js';
import { oneHourCacheWritePerMillion, type ModelPrice } from '../../billing/model-price.js';
import type { CatalogModel } from '../../routing/catalog-model.js';
import { requireUser } from '../api/authenticate-api-caller.js';
import type { ApiRouteContext } from './api-routes.js';

/**
 * `GET /api/me/groups`: the groups the caller holds, each with its models (`*` expanded to the models channels
 * serve now) and each model's prices after the group's price ratio, in micro-units; models without a price are left out.
 */
export function registerApiMyGroupRoutes(app: FastifyInstance, { services, api }: ApiRouteContext): void {
  const { billing, gatewayStore } = api;

  app.get('/me/groups', async (request) => {
    const user = requireUser(request.apiCaller);
    const groups = await gatewayStore.listUserGroups(user.id);
    const served = new Map(services.routing.current.listServedModels().map((model) => [model.id, model]));
    return {
      unit: 'micro-units; token prices per million tokens, audio per minute, video per second, images per image',
      data: groups.map((group) => {
        const ratio = billing.memory.priceRatioOf(group.id);
        const modelIds = group.models.includes('*')
          ? [...served.keys()]
          : [...group.models].sort((left, right) => left.localeCompare(right));
        return {
          id: group.id,
          name: group.name,
          description: group.description,
          priceRatioMillionths: ratio,
          // A model without any price is refused (docs/BILLING.md, prices), so it is not offered here.
          models: modelIds.flatMap((modelId) => {
            const price = billing.memory.priceOf(modelId, served.get(modelId));
            return price ? [presentModel(modelId, served.get(modelId), applyPriceRatio(price, ratio))] : [];
          }),
        };
      }),
    };
  });
}

/** A model with the prices that apply to it; only the kinds of price the model has. */
function presentModel(modelId: string, model: CatalogModel | undefined, price: ModelPrice) {
  return {
    id: modelId,
    /** false when no enabled channel serves the model at the moment */
    available: model !== undefined,
    ownedBy: model?.ownedBy ?? null,
    prices: {
      inputPerMillion: price.inputPerMillion,
      outputPerMillion: price.outputPerMillion,
      cachedInputPerMillion: price.cachedInputPerMillion,
      cacheWritePerMillion: price.cacheWritePerMillion,
      cacheWriteOneHourPerMillion: oneHourCacheWritePerMillion(price),
      ...(Object.keys(price.imagePrices).length > 0 ? { imagePrices: price.imagePrices } : {}),
      ...(price.audioPerMinute > 0 ? { audioPerMinute: price.audioPerMinute } : {}),
      ...(price.videoPerSecond > 0 ? { videoPerSecond: price.videoPerSecond } : {}),
    },
  };
}
