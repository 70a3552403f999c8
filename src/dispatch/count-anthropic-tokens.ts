import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { GatewayError } from '../core/gateway-error.js';
import { mapStatusToChannelOutcome } from '../routing/channel-health/map-status-to-channel-outcome.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import { withChannelOutcome, type ChannelAttemptResult } from './channel-attempt-result.js';
import { orderChannelsForAttempt } from '../routing/order-channels-for-attempt.js';
import type { DispatchServices } from './dispatch-services.js';
import {
  encodeAnthropicPassThrough,
  type AnthropicPassThroughRequest,
} from '../protocols/anthropic-messages/messages-pass-through.js';
import { readCappedUpstreamText } from './read-capped-upstream-text.js';
import { sendUpstreamRequest } from './send-upstream-request.js';
import { transportFailureOutcome } from './transport-failure-outcome.js';
import { tryChannelsWithBreakers } from './try-channels-with-breakers.js';

/** The most of a count_tokens answer read. */
const countAnswerMaximumBytes = 64 * 1024;

/** Anthropic's count_tokens answer: `{"input_tokens": n}`. */
const countAnswerSchema = z.object({ input_tokens: z.number() });

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a channel's failed count becomes: the next channel is tried, or the caller estimates; never shown to a client. */
const noCount = new GatewayError('service_unavailable', 'The channel gave no token count.');

/**
 * Asks an Anthropic channel of the model for the exact input tokens of a Messages request (`/messages/count_tokens`,
 * free at the vendor) through the failover loop with the breaker gate: channel order, channels whose breaker is open
 * skipped, each answer recorded on the channel's breaker. Undefined when the model has no Anthropic channel or none
 * answered: the caller then estimates.
 */
export async function countAnthropicTokens(
  modelId: string,
  request: AnthropicPassThroughRequest,
  services: DispatchServices,
): Promise<number | undefined> {
  try {
    const counted = await tryChannelsWithBreakers({
      health: services.channelHealth,
      modelId,
      channels: orderChannelsForAttempt(
        services.routing.current.channelsFor(modelId).filter((channel) => channel.protocol === 'anthropic'),
      ),
      attempt: (channel) => countOnChannel(modelId, request, channel, services),
      observed: { observer: services.observer, request: { modelId, stream: false, operationName: 'count_tokens' } },
    });
    return counted.value;
  } catch {
    // No channel, or none answered: the estimate.
    return undefined;
  }
}

async function countOnChannel(
  modelId: string,
  request: AnthropicPassThroughRequest,
  channel: RoutableChannel,
  services: DispatchServices,
): Promise<ChannelAttemptResult<number>> {
  const upstreamModelId = channel.modelMapping.get(modelId) ?? modelId;
  let response: Dispatcher.ResponseData;
  try {
    response = await sendUpstreamRequest(
      encodeAnthropicPassThrough(request, channel, upstreamModelId, '/messages/count_tokens'),
      {
        dispatcher: services.dispatcher,
        signal: AbortSignal.timeout(services.config.upstreamHeadersTimeoutMs),
        headersTimeoutMs: services.config.upstreamHeadersTimeoutMs,
        bodyTimeoutMs: services.config.upstreamBodyTimeoutMs,
      },
    );
  } catch (error) {
    return withChannelOutcome({ kind: 'retryable-failure', error: noCount }, transportFailureOutcome(error));
  }
  try {
    // A count is a few bytes: a larger answer (a page, a redirect's body) is no count, and is not held in memory.
    const read = await readCappedUpstreamText(response.body, countAnswerMaximumBytes);
    if (response.statusCode !== 200) {
      const retryAfter = response.headers['retry-after'];
      const outcome = mapStatusToChannelOutcome(
        response.statusCode,
        Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      );
      return withChannelOutcome({ kind: 'retryable-failure', error: noCount }, outcome);
    }
    const answer = read.kind === 'text' ? countAnswerSchema.safeParse(parseJsonOrUndefined(read.text)) : undefined;
    return answer?.success
      ? { kind: 'success', value: answer.data.input_tokens }
      : { kind: 'retryable-failure', error: noCount };
  } catch (error) {
    // The answer broke off or stalled while it was read.
    return withChannelOutcome({ kind: 'retryable-failure', error: noCount }, transportFailureOutcome(error));
  }
}
