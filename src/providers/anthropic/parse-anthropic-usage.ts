import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import type { AnthropicUsage } from './anthropic-wire-types.js';

/**
 * Anthropic's usage as canonical counts: `input_tokens` excludes cache reads and writes, so the input total is
 * input + cache_creation + cache_read; cache reads and writes are kept apart (each has its own price), and so are the
 * writes with a 1-hour TTL (`cache_creation.ephemeral_1h_input_tokens`, 2× input against 1.25× for 5 minutes). A
 * breakdown larger than `cache_creation_input_tokens` (or one without it) counts as the total, never less.
 */
export function parseAnthropicUsage(usage: AnthropicUsage): CanonicalUsage {
  const byTtl = usage.cache_creation;
  const oneHour = count(byTtl?.ephemeral_1h_input_tokens);
  const cacheWrite = Math.max(
    count(usage.cache_creation_input_tokens),
    count(byTtl?.ephemeral_5m_input_tokens) + oneHour,
  );
  const cacheRead = count(usage.cache_read_input_tokens);
  return {
    inputTokens: count(usage.input_tokens) + cacheWrite + cacheRead,
    cacheReadInputTokens: cacheRead,
    cacheWriteInputTokens: cacheWrite,
    ...(oneHour > 0 ? { cacheWriteOneHourInputTokens: oneHour } : {}),
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
