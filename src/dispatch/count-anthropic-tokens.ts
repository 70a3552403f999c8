import { z } from 'zod';
import { orderChannelsForAttempt } from '../routing/order-channels-for-attempt.js';
import type { DispatchServices } from './dispatch-services.js';
import { encodeAnthropicPassThrough, type AnthropicPassThroughRequest } from './pass-through/messages-pass-through.js';
import { readCappedUpstreamText } from './read-capped-upstream-text.js';
import { sendUpstreamRequest } from './send-upstream-request.js';

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

/**
 * Asks an Anthropic channel of the model for the exact input tokens of a Messages request (`/messages/count_tokens`,
 * free at the vendor), in channel order, skipping channels whose breaker is open. Undefined when the model has no
 * Anthropic channel or none answered: the caller then estimates.
 */
export async function countAnthropicTokens(
  modelId: string,
  request: AnthropicPassThroughRequest,
  services: DispatchServices,
): Promise<number | undefined> {
  const channels = orderChannelsForAttempt(
    services.routing.current.channelsFor(modelId).filter((channel) => channel.protocol === 'anthropic'),
  );
  for (const channel of channels) {
    if (!services.channelHealth.breakers.isAvailable(channel.id, modelId, services.channelHealth.clock())) continue;
    const upstreamModelId = channel.modelMapping.get(modelId) ?? modelId;
    try {
      const response = await sendUpstreamRequest(
        encodeAnthropicPassThrough(request, channel, upstreamModelId, '/messages/count_tokens'),
        {
          dispatcher: services.dispatcher,
          signal: AbortSignal.timeout(services.config.upstreamHeadersTimeoutMs),
          headersTimeoutMs: services.config.upstreamHeadersTimeoutMs,
          bodyTimeoutMs: services.config.upstreamBodyTimeoutMs,
        },
      );
      // A count is a few bytes: a larger answer (a page, a redirect's body) is no count, and is not held in memory.
      const read = await readCappedUpstreamText(response.body, countAnswerMaximumBytes);
      if (response.statusCode !== 200 || read.kind !== 'text') continue;
      const answer = countAnswerSchema.safeParse(parseJsonOrUndefined(read.text));
      if (answer.success) return answer.data.input_tokens;
    } catch {
      // Unreachable or timed out: the next channel, or the estimate.
    }
  }
  return undefined;
}
