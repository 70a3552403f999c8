import type { FastifyInstance } from 'fastify';
import { estimateCompletionRequest } from '../../protocols/openai-endpoints/estimate-completion-request.js';
import { forwardMetered } from '../forward-metered.js';
import { createJsonBodyBuilder } from '../forwarded-fields/create-json-body-builder.js';
import { planForwardedFields } from '../forwarded-fields/plan-forwarded-fields.js';
import type { GatewayServices } from '../gateway-services.js';
import {
  completionFieldRules,
  completionRequestSchema,
} from '../../protocols/openai-endpoints/completion-request-schema.js';
import { parseRequestBody } from '../../protocols/shared/parse-request-body.js';
import { resolveModel } from '../resolve-model.js';
import { withUpstreamUsage } from '../with-upstream-usage.js';

/** `POST /v1/completions`, the legacy text completion (spec 4.2). */
export function registerCompletionsRoute(app: FastifyInstance, services: GatewayServices): void {
  app.post('/v1/completions', async (request, reply) => {
    const body = parseRequestBody(completionRequestSchema, request.body);
    const routing = services.routing.current;
    const model = resolveModel(routing, request.principal, body.model, ['completion', 'chat']);
    const stream = body.stream === true;
    const plan = planForwardedFields({
      body: stream ? withUpstreamUsage(body) : body,
      rules: completionFieldRules,
      modelId: model.id,
      channels: routing.channelsFor(model.id),
    });
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'completions',
      estimate: estimateCompletionRequest(body),
      kind: 'openai-wire',
      upstreamPath: '/completions',
      buildBody: createJsonBodyBuilder(request, plan),
      acceptsChannel: plan.acceptsChannel,
      premiumPriceRatios: plan.premiumPriceRatios,
      stream,
      clientWantsUsage: body.stream_options?.include_usage === true,
    });
    return reply;
  });
}
