import type { FastifyInstance } from 'fastify';
import { estimateModerationRequest } from '../../protocols/openai-endpoints/estimate-moderation-request.js';
import {
  defaultModerationModel,
  moderationFieldRules,
  moderationRequestSchema,
} from '../../protocols/openai-endpoints/moderation-request-schema.js';
import { parseRequestBody } from '../../protocols/shared/parse-request-body.js';
import { forwardMetered } from '../forward-metered.js';
import { createJsonBodyBuilder } from '../forwarded-fields/create-json-body-builder.js';
import { planForwardedFields } from '../forwarded-fields/plan-forwarded-fields.js';
import type { GatewayServices } from '../gateway-services.js';
import { resolveModel } from '../resolve-model.js';

/** `POST /v1/moderations`: texts and images classified by an OpenAI-wire channel, its answer passed through. */
export function registerModerationsRoute(app: FastifyInstance, services: GatewayServices): void {
  app.post('/v1/moderations', async (request, reply) => {
    const body = parseRequestBody(moderationRequestSchema, request.body);
    const routing = services.routing.current;
    const model = resolveModel(routing, request.principal, body.model ?? defaultModerationModel, ['moderation']);
    const plan = planForwardedFields({
      body,
      rules: moderationFieldRules,
      modelId: model.id,
      channels: routing.channelsFor(model.id),
    });
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'moderations',
      estimate: estimateModerationRequest(body),
      kind: 'openai-wire',
      upstreamPath: '/moderations',
      buildBody: createJsonBodyBuilder(request, plan),
      acceptsChannel: plan.acceptsChannel,
      stream: false,
      clientWantsUsage: false,
    });
    return reply;
  });
}
