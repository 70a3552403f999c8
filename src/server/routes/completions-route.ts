import type { FastifyInstance } from 'fastify';
import { forwardMetered } from '../forward-metered.js';
import type { GatewayServices } from '../gateway-services.js';
import { completionRequestSchema } from '../request-schemas/completion-request-schema.js';
import { parseRequestBody } from '../request-schemas/parse-request-body.js';
import { resolveModel } from '../resolve-model.js';
import { withUpstreamUsage } from '../with-upstream-usage.js';

/** `POST /v1/completions`, the legacy text completion (spec 4.2). */
export function registerCompletionsRoute(app: FastifyInstance, services: GatewayServices): void {
  app.post('/v1/completions', async (request, reply) => {
    const body = parseRequestBody(completionRequestSchema, request.body);
    const model = resolveModel(services.routing.current, request.principal, body.model, ['completion', 'chat']);
    const stream = body.stream === true;
    const upstreamBody = stream ? withUpstreamUsage(body) : body;
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'completions',
      body,
      upstreamPath: '/completions',
      buildBody: (upstreamModelId) => JSON.stringify({ ...upstreamBody, model: upstreamModelId }),
      stream,
      clientWantsUsage: body.stream_options?.include_usage === true,
    });
    return reply;
  });
}
