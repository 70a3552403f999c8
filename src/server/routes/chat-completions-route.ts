import type { FastifyInstance } from 'fastify';
import { chatPromptPrefixKey } from '../../protocols/openai-chat/chat-prompt-prefix-key.js';
import { estimateChatRequest } from '../../protocols/openai-chat/estimate-chat-request.js';
import { forwardMetered } from '../forward-metered.js';
import { createJsonBodyBuilder } from '../forwarded-fields/create-json-body-builder.js';
import { planForwardedFields } from '../forwarded-fields/plan-forwarded-fields.js';
import type { GatewayServices } from '../gateway-services.js';
import { rejectUnsupportedImages } from '../../protocols/openai-chat/reject-unsupported-images.js';
import {
  chatCompletionFieldRules,
  chatCompletionRequestSchema,
} from '../../protocols/openai-chat/chat-completion-request-schema.js';
import { parseSparseRequestBody } from '../../protocols/shared/parse-request-body.js';
import { resolveModel } from '../resolve-model.js';
import { withUpstreamUsage } from '../with-upstream-usage.js';

/** `POST /v1/chat/completions`, streamed or not (spec 4.1). */
export function registerChatCompletionsRoute(app: FastifyInstance, services: GatewayServices): void {
  app.post('/v1/chat/completions', async (request, reply) => {
    const body = parseSparseRequestBody(chatCompletionRequestSchema, request.body);
    const routing = services.routing.current;
    const model = resolveModel(routing, request.principal, body.model, ['chat']);
    rejectUnsupportedImages(model, body.messages);
    const stream = body.stream === true;
    const plan = planForwardedFields({
      body: stream ? withUpstreamUsage(body) : body,
      rules: chatCompletionFieldRules,
      modelId: model.id,
      channels: routing.channelsFor(model.id),
    });
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'chat.completions',
      estimate: estimateChatRequest(body),
      kind: 'openai-wire',
      upstreamPath: '/chat/completions',
      buildBody: createJsonBodyBuilder(request, plan),
      acceptsChannel: plan.acceptsChannel,
      premiumPriceRatios: plan.premiumPriceRatios,
      stream,
      clientWantsUsage: body.stream_options?.include_usage === true,
      translation: { kind: 'chat', request: body },
      maxOutputTokens: model.maxOutputTokens,
      cacheAffinityKey: () => chatPromptPrefixKey(body),
    });
    return reply;
  });
}
