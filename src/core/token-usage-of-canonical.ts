import type { CanonicalUsage } from './canonical/canonical-usage.js';
import type { TokenUsage } from './token-usage.js';

/**
 * Canonical usage as the TokenUsage billing settles from: the prompt includes cache reads and writes, the completion
 * includes reasoning; a cache write is reported only when there was one (billing counts an absent one as zero).
 */
export function tokenUsageOfCanonical(usage: CanonicalUsage): TokenUsage {
  return {
    promptTokens: usage.inputTokens,
    completionTokens: usage.outputTokens,
    totalTokens: usage.inputTokens + usage.outputTokens,
    cachedPromptTokens: usage.cacheReadInputTokens,
    reasoningTokens: usage.reasoningTokens,
    ...(usage.cacheWriteInputTokens > 0 ? { cacheWritePromptTokens: usage.cacheWriteInputTokens } : {}),
    ...(usage.cacheWriteOneHourInputTokens
      ? { cacheWriteOneHourPromptTokens: usage.cacheWriteOneHourInputTokens }
      : {}),
  };
}
