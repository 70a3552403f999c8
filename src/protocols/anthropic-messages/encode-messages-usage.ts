import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import type { MessagesUsage } from './messages-wire-types.js';

/**
 * Canonical usage in Anthropic's terms: `input_tokens` is what was neither read from nor written to the cache. The
 * writes are split by TTL in `cache_creation` when the vendor wrote some at 1 hour (the rest are 5-minute writes);
 * without 1-hour writes it is left out, so a stream's `message_start` (which SDKs keep it from) never shows a split
 * its final counts contradict.
 */
export function encodeMessagesUsage(usage: CanonicalUsage | null): MessagesUsage {
  if (!usage) return { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };
  const oneHour = Math.min(usage.cacheWriteOneHourInputTokens ?? 0, usage.cacheWriteInputTokens);
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cacheReadInputTokens - usage.cacheWriteInputTokens),
    cache_creation_input_tokens: usage.cacheWriteInputTokens,
    ...(oneHour > 0
      ? {
          cache_creation: {
            ephemeral_5m_input_tokens: usage.cacheWriteInputTokens - oneHour,
            ephemeral_1h_input_tokens: oneHour,
          },
        }
      : {}),
    cache_read_input_tokens: usage.cacheReadInputTokens,
    output_tokens: usage.outputTokens,
  };
}
