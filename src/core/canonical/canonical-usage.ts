/**
 * Tokens one answer consumed, vendor-neutral. Input counts are totals that include the cached parts, so
 * uncached input = inputTokens − cacheReadInputTokens − cacheWriteInputTokens.
 */
export interface CanonicalUsage {
  /** all input tokens, cache reads and cache writes included */
  inputTokens: number;
  /** input tokens served from the vendor's prompt cache */
  cacheReadInputTokens: number;
  /** input tokens written to the vendor's prompt cache (Anthropic cache creation), at every TTL */
  cacheWriteInputTokens: number;
  /** of cacheWriteInputTokens, those written with a 1-hour TTL (priced apart); absent when the vendor tells none apart */
  cacheWriteOneHourInputTokens?: number;
  /** all output tokens, reasoning included */
  outputTokens: number;
  /** output tokens spent on reasoning (hidden or shown) */
  reasoningTokens: number;
}

/** A usage with every count at zero, the starting point of a fold. */
export function emptyCanonicalUsage(): CanonicalUsage {
  return { inputTokens: 0, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
}
