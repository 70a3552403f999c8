import type { FastifyRequest } from 'fastify';
import type { DispatchOutcome } from '../dispatch/dispatch-request.js';
import type { GatewayServices } from './gateway-services.js';

/** Counts a finished request in the metrics and the debug log. */
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
      { endpoint, userId: request.principal.userId, apiKeyId: request.principal.apiKeyId, ...outcome },
      'request finished',
    );
  }
}
