import type { FastifyRequest } from 'fastify';
import type { DispatchOutcome } from '../dispatch/dispatch-request.js';
import type { GatewayServices } from './gateway-services.js';

/** Counts a finished request in the metrics and the debug log (sizes, status and ids only). */
export function recordForwardingOutcome(
  services: GatewayServices,
  request: FastifyRequest,
  endpoint: string,
  outcome: DispatchOutcome,
): void {
  const { metrics } = services;
  metrics.requests.inc({ endpoint, status: String(outcome.status) });
  metrics.requestDuration.observe({ endpoint }, (services.clock() - request.receivedAt) / 1000);
  if (outcome.usage) {
    metrics.tokens.inc({ direction: 'input' }, outcome.usage.promptTokens);
    metrics.tokens.inc({ direction: 'output' }, outcome.usage.completionTokens);
  }
  if (services.logger.isLevelEnabled('debug')) {
    request.log.debug(
      { endpoint, userId: request.principal.userId, apiKeyId: request.principal.apiKeyId, ...outcomeForLog(outcome) },
      'request finished',
    );
  }
}

/**
 * What the log keeps of an outcome: status, ids, counts and flags. The model's output (a stream's generated text, an
 * answer's text) is left out, only its length in characters kept: logs must never hold what users and models said.
 */
export function outcomeForLog(outcome: DispatchOutcome) {
  return {
    channelId: outcome.channelId,
    status: outcome.status,
    errorCode: outcome.errorCode,
    usage: outcome.usage,
    firstByteAt: outcome.firstByteAt,
    clientAborted: outcome.clientAborted,
    sentUpstream: outcome.sentUpstream,
    usageUnknown: outcome.usageUnknown,
    generatedTextLength: outcome.generatedText?.length,
    answerTextLength: outcome.answerUsage?.text?.length,
    answerImages: outcome.answerUsage?.images,
  };
}
