import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { createMessagesPassThrough } from '../../protocols/anthropic-messages/messages-pass-through.js';
import { estimateMessagesRequest } from '../../protocols/anthropic-messages/estimate-messages-request.js';
import { createMessagesAnswerCodec } from '../../protocols/anthropic-messages/messages-answer-codec.js';
import { messagesPromptPrefixKey } from '../../protocols/anthropic-messages/messages-prompt-prefix-key.js';
import { withoutMessageThreadsBeta } from '../../protocols/anthropic-messages/messages-thread-param.js';
import { parseMessagesRequest } from '../../protocols/anthropic-messages/parse-messages-request.js';
import { forwardMetered } from '../forward-metered.js';
import { planAnthropicForwarding } from '../forwarded-fields/plan-anthropic-forwarding.js';
import type { GatewayServices } from '../gateway-services.js';
import { createMessagesArtefactSealer } from '../messages-artefact-sealer.js';
import { rejectUnsupportedMessageImages } from '../../protocols/anthropic-messages/reject-unsupported-message-images.js';
import { readAnthropicForwarding } from '../read-anthropic-forwarding.js';
import { resolveModel } from '../resolve-model.js';
import { openMessagesThreadTurn } from './messages-thread-turn.js';

/**
 * `POST /v1/messages` (Anthropic Messages; any query string, e.g. Claude Code's `?beta=true`, is accepted and never
 * forwarded), streamed or not. The body is parsed into the canonical request, which holds the cost and which dispatch
 * serves through any channel protocol, written back with the Messages codec; Anthropic channels get the client's body
 * as it came (model name replaced, its `anthropic-version` forwarded: see createMessagesPassThrough). Betas, premium
 * fields and 1-hour cache TTLs go only to channels that allow and price them, else 400 (planAnthropicForwarding).
 * A `thread` (message threads) is served by the gateway for every vendor: see openMessagesThreadTurn.
 */
export function registerMessagesRoute(app: FastifyInstance, services: GatewayServices): void {
  const sealer = createMessagesArtefactSealer(services.config);
  app.post('/v1/messages', async (request, reply) => {
    const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
    const thread = await openMessagesThreadTurn({
      body: request.body as Record<string, unknown>,
      services,
      principal: request.principal,
      messageId,
      log: request.log,
    });
    const body = thread?.body ?? (request.body as Record<string, unknown>);
    const parsed = parseMessagesRequest(body, { unsealArtefact: sealer.unseal });
    const routing = services.routing.current;
    const model = resolveModel(routing, request.principal, parsed.request.model, ['chat']);
    if (parsed.ignoredFields.length > 0)
      request.log.debug({ ignoredFields: parsed.ignoredFields }, 'messages fields accepted but not translated');
    rejectUnsupportedMessageImages(model, body);
    const forwarding = readAnthropicForwarding(request);
    const plan = planAnthropicForwarding({
      body,
      anthropicBeta: withoutMessageThreadsBeta(forwarding.anthropicBeta),
      modelId: model.id,
      channels: routing.channelsFor(model.id),
    });
    const answerCodec = createMessagesAnswerCodec({
      messageId,
      model: model.id,
      sealArtefact: sealer.seal,
      effortParam: parsed.effortParam,
    });
    const codec = thread ? thread.holdingCodec(answerCodec) : answerCodec;
    const directPassThrough = createMessagesPassThrough({
      body,
      anthropicVersion: forwarding.anthropicVersion,
      anthropicBeta: plan.anthropicBeta,
      messageId,
      model: model.id,
      unsealArtefact: (signature) => sealer.unseal(signature)?.artefact ?? null,
    });
    const passThrough = thread ? thread.holdingPassThrough(directPassThrough) : directPassThrough;
    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'messages',
      estimate: estimateMessagesRequest(parsed.request),
      kind: 'canonical',
      passThrough,
      acceptsChannel: plan.acceptsChannel,
      premiumPriceRatios: plan.premiumPriceRatios,
      promptCacheTtl: plan.promptCacheTtl,
      stream: parsed.request.stream,
      clientWantsUsage: false,
      canonical: { request: parsed.request, codec },
      maxOutputTokens: model.maxOutputTokens,
      cacheAffinityKey: () => messagesPromptPrefixKey(body),
    });
    return reply;
  });
}
