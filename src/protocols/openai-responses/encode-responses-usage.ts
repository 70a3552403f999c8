import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import type { ResponsesUsage } from './responses-wire-types.js';

/** Canonical usage in Responses' shape; `total_tokens` is input plus output, as in the description's examples. */
export function encodeResponsesUsage(usage: CanonicalUsage): ResponsesUsage {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: {
      cached_tokens: usage.cacheReadInputTokens,
      cache_write_tokens: usage.cacheWriteInputTokens,
    },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
