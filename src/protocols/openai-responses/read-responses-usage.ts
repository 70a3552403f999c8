import type { TokenUsage } from '../../core/token-usage.js';

/** A count, or 0 when the vendor left it out or sent something that is not a non-negative integer. */
function countOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

/**
 * A Responses `usage` object as the gateway's TokenUsage: `input_tokens` includes `cached_tokens` (and cache writes),
 * `output_tokens` includes `reasoning_tokens`. Undefined when there is no usage object (in progress, or a vendor
 * that reports none).
 */
export function readResponsesUsage(value: unknown): TokenUsage | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const usage = value as Record<string, unknown>;
  const inputDetails = (usage.input_tokens_details ?? {}) as Record<string, unknown>;
  const outputDetails = (usage.output_tokens_details ?? {}) as Record<string, unknown>;
  const promptTokens = countOf(usage.input_tokens);
  const completionTokens = countOf(usage.output_tokens);
  const cacheWritePromptTokens = countOf(inputDetails.cache_write_tokens);
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    cachedPromptTokens: countOf(inputDetails.cached_tokens),
    reasoningTokens: countOf(outputDetails.reasoning_tokens),
    ...(cacheWritePromptTokens > 0 ? { cacheWritePromptTokens } : {}),
  };
}
