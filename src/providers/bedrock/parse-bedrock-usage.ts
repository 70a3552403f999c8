import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';

interface BedrockUsageFields {
  inputTokens?: unknown;
  outputTokens?: unknown;
  totalTokens?: unknown;
  cacheReadInputTokens?: unknown;
  cacheWriteInputTokens?: unknown;
}

/**
 * Reads a Converse `usage` object. Bedrock reports `inputTokens` WITHOUT the tokens read from or written to the
 * prompt cache (AWS prompt-caching docs: `totalTokens` = input + output + cacheRead + cacheWrite), so the canonical
 * input total is the sum of the three; reads and writes are kept apart, each has its own price.
 */
export function parseBedrockUsage(value: unknown): CanonicalUsage | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const usage = value as BedrockUsageFields;
  const cacheRead = toCount(usage.cacheReadInputTokens);
  const cacheWrite = toCount(usage.cacheWriteInputTokens);
  return {
    inputTokens: toCount(usage.inputTokens) + cacheRead + cacheWrite,
    cacheReadInputTokens: cacheRead,
    cacheWriteInputTokens: cacheWrite,
    outputTokens: toCount(usage.outputTokens),
    reasoningTokens: 0,
  };
}

function toCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
