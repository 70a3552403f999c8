import type { FastifyInstance } from 'fastify';
import { countTextTokens } from '../../billing/count-text-tokens.js';
import { estimateCanonicalInputTokens } from '../../billing/estimate-canonical-input-tokens.js';
import { countAnthropicTokens } from '../../dispatch/count-anthropic-tokens.js';
import { parseCountTokensRequest } from '../../protocols/anthropic-messages/parse-messages-request.js';
import type { GatewayServices } from '../gateway-services.js';
import { createMessagesArtefactSealer } from '../messages-artefact-sealer.js';
import { readAnthropicForwarding } from '../read-anthropic-forwarding.js';
import { resolveModel } from '../resolve-model.js';

/**
 * `POST /v1/messages/count_tokens` → `{input_tokens}`, free of charge. Exact when the model has an Anthropic channel
 * (the vendor counts, the request passed through as for `/v1/messages`); otherwise an estimate: texts counted with the
 * gateway's o200k tokenizer, images and files by the hold's worst cases (docs/API.md, "Messages").
 */
export function registerMessagesCountTokensRoute(app: FastifyInstance, services: GatewayServices): void {
  const sealer = createMessagesArtefactSealer(services.config);
  app.post('/v1/messages/count_tokens', async (request) => {
    const canonicalRequest = parseCountTokensRequest(request.body, { unsealArtefact: sealer.unseal });
    const model = resolveModel(services.routing.current, request.principal, canonicalRequest.model, ['chat']);
    const exact = await countAnthropicTokens(
      model.id,
      {
        body: request.body as Record<string, unknown>,
        ...readAnthropicForwarding(request),
        unsealArtefact: (signature) => sealer.unseal(signature)?.artefact ?? null,
      },
      services,
    );
    return { input_tokens: exact ?? estimateCanonicalInputTokens(canonicalRequest, countTextTokens) };
  });
}

