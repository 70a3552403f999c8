import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.js';
import { geminiModelId } from '../../protocols/gemini-generate-content/gemini-model-path.js';
import {
  geminiGenerationMethods,
  pageGeminiModels,
  toGeminiModelObject,
} from '../../protocols/gemini-generate-content/gemini-model-object.js';
import type { GatewayServices } from '../gateway-services.js';

/**
 * `GET /v1beta/models` and `GET /v1beta/models/{model}` in Gemini's Model shape: only the key's models that Gemini's
 * API can call (chat and embedding models), paged by `pageSize` / `pageToken`.
 */
export function registerGeminiModelRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.get('/v1beta/models', async (request) =>
    pageGeminiModels(
      services.routing.current.listModelsFor(request.principal),
      request.query as Record<string, unknown>,
    ),
  );
  app.get('/v1beta/models/*', async (request) => {
    const modelId = geminiModelId((request.params as { '*': string })['*']);
    const model = services.routing.current.findModelFor(request.principal, modelId);
    if (!model || geminiGenerationMethods(model.kind).length === 0)
      throw new GatewayError(
        'model_not_found',
        `Model 'models/${modelId}' is not found or you do not have access to it.`,
      );
    return toGeminiModelObject(model);
  });
}
