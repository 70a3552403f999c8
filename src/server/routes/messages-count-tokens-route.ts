import type { FastifyInstance } from 'fastify';
import { countTextTokens } from '../../billing/count-text-tokens.js';
import { estimateCanonicalInputTokens } from '../../billing/estimate-canonical-input-tokens.js';
import { parseCountTokensRequest } from '../../protocols/anthropic-messages/parse-messages-request.js';
import type { GatewayServices } from '../gateway-services.js';
import { createMessagesArtefactSealer } from '../messages-artefact-sealer.js';
import { resolveModel } from '../resolve-model.js';

/**
 * `POST /v1/messages/count_tokens` → `{input_tokens}`, free of charge. An estimate: texts are counted with the
 * gateway's o200k tokenizer, images and files by the hold's worst cases (docs/API.md, "Messages"); asking the vendor
 * for an exact count is a later step.
 */
export function registerMessagesCountTokensRoute(app: FastifyInstance, services: GatewayServices): void {
  const sealer = createMessagesArtefactSealer(services.config);
  app.post('/v1/messages/count_tokens', async (request) => {
    const canonicalRequest = parseCountTokensRequest(request.body, { unsealArtefact: sealer.unseal });
    resolveModel(services.routing.current, request.principal, canonicalRequest.model, ['chat']);
    return { input_tokens: estimateCanonicalInputTokens(canonicalRequest, countTextTokens) };
  });
}
