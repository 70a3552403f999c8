import type { FastifyInstance } from 'fastify';
import { estimateEmbeddingRequest } from '../../protocols/openai-endpoints/estimate-embedding-request.js';
import { forwardMetered } from '../forward-metered.js';
import { createJsonBodyBuilder } from '../forwarded-fields/create-json-body-builder.js';
import { planForwardedFields } from '../forwarded-fields/plan-forwarded-fields.js';
import type { GatewayServices } from '../gateway-services.js';
import {
  embeddingFieldRules,
  embeddingRequestSchema,
} from '../../protocols/openai-endpoints/embedding-request-schema.js';
import { parseRequestBody } from '../../protocols/shared/parse-request-body.js';
import { resolveModel } from '../resolve-model.js';

/** `POST /v1/embeddings`, float or base64 vectors passed through unchanged (spec 4.3). */
export function registerEmbeddingsRoute(app: FastifyInstance, services: GatewayServices): void {
  app.post('/v1/embeddings', async (request, reply) => {
    const body = parseRequestBody(embeddingRequestSchema, request.body);
    const routing = services.routing.current;
    const model = resolveModel(routing, request.principal, body.model, ['embedding']);
    const plan = planForwardedFields({
      body,
      rules: embeddingFieldRules,
      modelId: model.id,
      channels: routing.channelsFor(model.id),
    });
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'embeddings',
      estimate: estimateEmbeddingRequest(body),
      kind: 'openai-wire',
      upstreamPath: '/embeddings',
      buildBody: createJsonBodyBuilder(request, plan),
      acceptsChannel: plan.acceptsChannel,
      stream: false,
      clientWantsUsage: false,
      translation: { kind: 'embedding', request: body },
    });
    return reply;
  });
}
