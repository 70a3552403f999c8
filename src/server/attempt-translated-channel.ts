import { GatewayError } from '../core/gateway-error.js';
import type { UpstreamAttemptResult } from '../providers/upstream-attempt-result.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { AttemptValue, UpstreamForwarding } from './forward-to-upstream.js';

/** One try against a channel whose protocol is translated (Anthropic, Gemini, Bedrock). */
export async function attemptTranslatedChannel(options: {
  forwarding: UpstreamForwarding;
  channel: RoutableChannel;
  upstreamModelId: string;
  signal: AbortSignal;
}): Promise<UpstreamAttemptResult<AttemptValue>> {
  return {
    kind: 'retryable-failure',
    error: new GatewayError('service_unavailable', `The channel protocol '${options.channel.protocol}' cannot serve this endpoint.`),
  };
}
