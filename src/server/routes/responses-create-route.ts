import type { FastifyInstance } from 'fastify';
import {
  createResponsesPassThrough,
  type PassedThroughResponse,
} from '../../protocols/openai-responses/responses-pass-through.js';
import { estimateResponsesRequest } from '../../protocols/openai-responses/estimate-responses-request.js';
import { assignInputItemIds } from '../../protocols/openai-responses/assign-input-item-ids.js';
import { parseResponsesRequest } from '../../protocols/openai-responses/parse-responses-request.js';
import { responsesAnswerCodec } from '../../protocols/openai-responses/responses-answer-codec.js';
import { responsesPromptPrefixKey } from '../../protocols/openai-responses/responses-prompt-prefix-key.js';
import type { ResponsesResponse } from '../../protocols/openai-responses/responses-wire-types.js';
import { forwardMetered } from '../forward-metered.js';
import type { GatewayServices, ResponsesServices } from '../gateway-services.js';
import { resolveModel } from '../resolve-model.js';
import { loadResponsesChain, type LoadedResponsesChain } from './responses-chain.js';
import { createGatewayItemId } from './responses-ids.js';

/**
 * `POST /v1/responses`, streamed or not. OpenAI channels with the Responses API get the body passed through (ids
 * mapped); every other channel is served from the canonical request through its adapter. With `store` (the
 * default) the final response is kept before the client has it all, so a `previous_response_id` sent right after
 * always finds it; with `store: false` nothing is kept.
 */
export function registerResponsesCreateRoute(
  app: FastifyInstance,
  services: GatewayServices,
  responses: ResponsesServices,
): void {
  app.post('/v1/responses', async (request, reply) => {
    const body = request.body as Record<string, unknown>;
    const unsealReasoning = (sealed: string) => responses.sealer.unseal(sealed);
    const parsed = parseResponsesRequest(body, { unsealReasoning });
    const routing = services.routing.current;
    const principal = request.principal;
    const model = resolveModel(routing, principal, parsed.request.model, ['chat']);
    const chain: LoadedResponsesChain | null = parsed.previousResponseId
      ? await loadResponsesChain(responses.store, parsed.previousResponseId, principal.userId, unsealReasoning)
      : null;
    const responseId = createGatewayItemId('resp');
    const inputItems = assignInputItemIds(body.input, createGatewayItemId);
    const canonicalRequest = chain
      ? { ...parsed.request, messages: [...chain.messages, ...parsed.request.messages] }
      : parsed.request;

    const save = async (
      response: Record<string, unknown>,
      channelId: string | null,
      vendorResponseId: string | null,
    ): Promise<void> => {
      if (!parsed.store) return;
      await responses.store.save({
        id: responseId,
        userId: principal.userId,
        apiKeyId: principal.apiKeyId,
        model: model.id,
        channelId,
        vendorResponseId,
        previousResponseId: parsed.previousResponseId,
        inputItems,
        response,
        createdAt: request.receivedAt,
      });
    };
    // Kept before the answer's last bytes go out (the codec waits for it), so a follow-up sent at once finds it. A
    // failed save is logged, not thrown: the vendor did the work and the answer is billed and delivered all the same.
    const keepCanonicalResponse = (response: ResponsesResponse): Promise<void> =>
      save(response as unknown as Record<string, unknown>, null, null).catch((error: unknown) =>
        request.log.error({ err: error }, 'storing a response failed'),
      );
    const codec = responsesAnswerCodec(
      {
        responseId,
        createdAt: Math.floor(request.receivedAt / 1000),
        echo: parsed.echo,
        loadedTools: parsed.loadedTools,
        createItemId: createGatewayItemId,
        nowSeconds: () => Math.floor(services.clock() / 1000),
        ...(parsed.include.includes('reasoning.encrypted_content')
          ? { sealReasoning: (artefact) => responses.sealer.seal(artefact) }
          : {}),
        sealToolCallArtefact: (artefact) => responses.sealer.seal(artefact),
      },
      { onFinalResponse: keepCanonicalResponse },
    );
    const passThrough = createResponsesPassThrough({
      body,
      responseId,
      model: model.id,
      chain: chain?.passThrough ?? null,
      isGatewaySealed: (encryptedContent) => responses.sealer.unseal(encryptedContent) !== null,
      onFinalResponse: (final: PassedThroughResponse) =>
        save(final.response, final.channelId, final.vendorResponseId ?? null),
    });

    await forwardMetered({
      reply,
      services,
      request,
      model,
      endpoint: 'responses',
      estimate: estimateResponsesRequest(canonicalRequest),
      kind: 'canonical',
      canonical: { request: canonicalRequest, codec },
      passThrough,
      stream: parsed.request.stream,
      clientWantsUsage: false,
      maxOutputTokens: model.maxOutputTokens,
      cacheAffinityKey: () => responsesPromptPrefixKey(body),
    });
    return reply;
  });
}
