import { orderChannelsForAttempt } from '../routing/order-channels-for-attempt.js';
import type { DispatchServices } from './dispatch-services.js';
import { encodeAnthropicPassThrough, type AnthropicPassThroughRequest } from './pass-through/messages-pass-through.js';
import { sendUpstreamRequest } from './send-upstream-request.js';

/**
 * Asks an Anthropic channel of the model for the exact input tokens of a Messages request (`/messages/count_tokens`,
 * free at the vendor), in channel order, skipping channels whose breaker is open. Undefined when the model has no
 * Anthropic channel or none answered: the caller then estimates.
 */
export async function countAnthropicTokens(modelId: string, request: AnthropicPassThroughRequest, services: DispatchServices): Promise<number | undefined> {
  const channels = orderChannelsForAttempt(services.routing.current.channelsFor(modelId).filter((channel) => channel.protocol === 'anthropic'));
  for (const channel of channels) {
    if (!services.channelHealth.breakers.isAvailable(channel.id, modelId, services.channelHealth.clock())) continue;
    const upstreamModelId = channel.modelMapping.get(modelId) ?? modelId;
    try {
      const response = await sendUpstreamRequest(encodeAnthropicPassThrough(request, channel, upstreamModelId, '/messages/count_tokens'), {
        dispatcher: services.dispatcher,
        signal: AbortSignal.timeout(services.config.upstreamHeadersTimeoutMs),
        headersTimeoutMs: services.config.upstreamHeadersTimeoutMs,
        bodyTimeoutMs: services.config.upstreamBodyTimeoutMs,
      });
      const answer = (await response.body.json().catch(() => undefined)) as { input_tokens?: unknown } | undefined;
      if (response.statusCode === 200 && typeof answer?.input_tokens === 'number') return answer.input_tokens;
    } catch {
      // Unreachable or timed out: the next channel, or the estimate.
    }
  }
  return undefined;
}
