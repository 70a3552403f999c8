import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import type { CatalogModel } from '../../routing/catalog-model.js';
import type { GatewayServices } from '../gateway-services.js';
import { pageAnthropicModels, toAnthropicModelObject, type AnthropicModelListQuery } from './anthropic-model-list.js';

/**
 * `GET /v1/models` and `GET /v1/models/{id}`: only the models of the key's group (spec 2.1, 2.2, 4.7, 4.8). A request
 * with `anthropic-version` (the Anthropic SDK, Claude Code's model discovery) gets Anthropic's shape and paging.
 */
export function registerModelRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.get('/v1/models', async (request) => {
    const models = services.routing.current.listModelsFor(request.principal);
    if (wantsAnthropicShape(request)) return pageAnthropicModels(models, request.query as AnthropicModelListQuery);
    return { object: 'list', data: models.map(toModelObject) };
  });

  // A wildcard, because vendor model ids may contain slashes (`meta-llama/Llama-3.3-70B`).
  app.get('/v1/models/*', async (request) => {
    // The router has decoded the path already; decoding again would break ids with '%' (and throw on some).
    const modelId = (request.params as { '*': string })['*'];
    const model = services.routing.current.findModelFor(request.principal, modelId);
    if (!model)
      throw new GatewayError(
        'model_not_found',
        `The model '${modelId}' does not exist or you do not have access to it.`,
        { param: 'model' },
      );
    return wantsAnthropicShape(request) ? toAnthropicModelObject(model) : toModelObject(model);
  });
}

/** The Anthropic SDK always sends `anthropic-version`; OpenAI clients never do. */
function wantsAnthropicShape(request: FastifyRequest): boolean {
  return request.headers['anthropic-version'] !== undefined;
}

function toModelObject(model: CatalogModel): { id: string; object: 'model'; created: number; owned_by: string } {
  return { id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy };
}
