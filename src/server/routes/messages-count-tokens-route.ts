import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { countTextTokens } from '../../billing/count-text-tokens.js';
import { estimateDocumentPages, estimateInlinePdfTokens } from '../../billing/estimate-document-pages.js';
import { collectCanonicalInputText } from '../../core/token-estimates/collect-canonical-input-text.js';
import { countAnthropicTokens } from '../../dispatch/count-anthropic-tokens.js';
import { parseCountTokensRequest } from '../../protocols/anthropic-messages/parse-messages-request.js';
import { countTokensAnthropicBeta } from '../forwarded-fields/plan-anthropic-forwarding.js';
import type { GatewayServices } from '../gateway-services.js';
import { createMessagesArtefactSealer } from '../messages-artefact-sealer.js';
import { readAnthropicForwarding } from '../read-anthropic-forwarding.js';
import { observeUnmeteredRequest, type UnmeteredOperation } from '../observe-unmetered-request.js';
import { resolveModel } from '../resolve-model.js';

/**
 * `POST /v1/messages/count_tokens` → `{input_tokens}`, free of charge but not free of limits: before its body is read
 * it is admitted as a request of the key's rate limits and needs a balance (accounting.admitUnbilled), and its body
 * has its own, smaller cap (GATEWAY_COUNT_TOKENS_BODY_LIMIT_BYTES). Exact when the model has an Anthropic channel
 * (the vendor counts, the request passed through as for `/v1/messages`); otherwise an estimate: texts counted with the
 * gateway's o200k tokenizer (in its worker thread), images and files by the hold's worst cases (docs/API.md, "Messages").
 */
export function registerMessagesCountTokensRoute(app: FastifyInstance, services: GatewayServices): void {
  const sealer = createMessagesArtefactSealer(services.config);
  const onRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const admission = await services.accounting.admitUnbilled({
      principal: request.principal,
      clientIp: request.ip,
      receivedAt: request.receivedAt,
    });
    reply.raw.once('close', admission.release);
    void reply.headers(admission.responseHeaders);
  };
  app.post(
    '/v1/messages/count_tokens',
    { bodyLimit: services.config.countTokensBodyLimitBytes, onRequest },
    async (request) => {
      const canonicalRequest = parseCountTokensRequest(request.body, { unsealArtefact: sealer.unseal });
      const routing = services.routing.current;
      const model = resolveModel(routing, request.principal, canonicalRequest.model, ['chat']);
      // A SERVER span when tracing is on; the vendor's count (when an Anthropic channel serves the model) is its CLIENT span.
      return observeUnmeteredRequest(services, request, countTokensOperation(model.id), async () => {
        const forwarding = readAnthropicForwarding(request);
        const exact = await countAnthropicTokens(
          model.id,
          {
            body: request.body as Record<string, unknown>,
            anthropicVersion: forwarding.anthropicVersion,
            // Counting is free: a beta no channel offers is dropped here, not refused (it is refused on /v1/messages).
            anthropicBeta: countTokensAnthropicBeta(forwarding.anthropicBeta, routing.channelsFor(model.id)),
            unsealArtefact: (signature) => sealer.unseal(signature)?.artefact ?? null,
          },
          services,
        );
        if (exact !== undefined) return { input_tokens: exact };
        const input = collectCanonicalInputText(canonicalRequest);
        // PDFs are counted within the request's decompression budget, off the main thread, as for holds.
        const documentPages =
          input.inlinePdfs.length === 0
            ? undefined
            : await estimateDocumentPages(input.inlinePdfs, services.config.decompressionBudgetBytes);
        const pdfTokens = estimateInlinePdfTokens(input.inlinePdfs, documentPages);
        // The gateway's token counter runs the tokenizer in a worker thread; an app built without the /api services (some
        // tests) has none and counts here.
        const tokenCounter = services.api?.billing.tokenCounter;
        const textTokens =
          tokenCounter === undefined ? countTextTokens(input.text) : ((await tokenCounter.count([input.text]))[0] ?? 0);
        return { input_tokens: input.tokensBesideText + pdfTokens + textTokens };
      });
    },
  );
}

/** The span of a token count: no GenAI operation is named for it, so the gateway names its own. */
function countTokensOperation(modelId: string): UnmeteredOperation {
  return { operation: 'count_tokens', modelId };
}
