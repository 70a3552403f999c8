import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import type { AnthropicUsage } from './anthropic-wire-types.js';

/**
 * Anthropic's usage as canonical counts: `input_tokens` excludes cache reads and writes, so the input total is
 * input + cache_creation + cache_read; cache reads and writes are kept apart (each has its own price).
 */
export function parseAnthropicUsage(usage: AnthropicUsage): CanonicalUsage {
  const cacheWrite = count(usage.cache_creation_input_tokens);
  const cacheRead = count(usage.cache_read_input_tokens);
  return {
    inputTokens: count(usage.input_tokens) + cacheWrite + cacheRead,
    cacheReadInputTokens: cacheRead,
    cacheWriteInputTokens: cacheWrite,
    outputTokens: count(usage.output_tokens),
    reasoningTokens: count(usage.output_tokens_details?.thinking_tokens),
  };
}

/** Merges a stream's usage: a later non-null count replaces an earlier one (message_delta counts are cumulative). */
export function mergeAnthropicUsage(earlier: AnthropicUsage, later: AnthropicUsage | undefined): AnthropicUsage {
  if (!later) return earlier;
  const merged: AnthropicUsage = { ...earlier };
  for (const [field, value] of Object.entries(later) as Array<
    [keyof AnthropicUsage, AnthropicUsage[keyof AnthropicUsage]]
  >) {
    if (value !== null && value !== undefined) (merged as Record<string, unknown>)[field] = value;
  }
  return merged;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
