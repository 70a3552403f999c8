import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import type { MessagesUsage } from './messages-wire-types.js';

/** Canonical usage in Anthropic's terms: `input_tokens` is what was neither read from nor written to the cache. */
export function encodeMessagesUsage(usage: CanonicalUsage | null): MessagesUsage {
  if (!usage) return { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cacheReadInputTokens - usage.cacheWriteInputTokens),
    cache_creation_input_tokens: usage.cacheWriteInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
    output_tokens: usage.outputTokens,
  };
}
