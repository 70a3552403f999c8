import type { FastifyInstance } from 'fastify';
import { forwardMetered } from '../forward-metered.js';
import type { GatewayServices } from '../gateway-services.js';
import { embeddingRequestSchema } from '../request-schemas/embedding-request-schema.js';
import { parseRequestBody } from '../request-schemas/parse-request-body.js';
import { resolveModel } from '../resolve-model.js';

/** `POST /v1/embeddings`, float or base64 vectors passed through unchanged (spec 4.3). */
export function registerEmbeddingsRoute(app: FastifyInstance, services: GatewayServices): void {
  app.post('/v1/embeddings', async (request, reply) => {
    const body = parseRequestBody(embeddingRequestSchema, request.body);
    const model = resolveModel(services.routing.current, request.principal, body.model, ['embedding']);
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'embeddings',
      body,
      upstreamPath: '/embeddings',
      buildBody: (upstreamModelId) => JSON.stringify({ ...body, model: upstreamModelId }),
      stream: false,
      clientWantsUsage: false,
      embeddingRequest: body,
    });
    return reply;
  });
}
