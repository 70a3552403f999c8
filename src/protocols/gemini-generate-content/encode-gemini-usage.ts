import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import type { GeminiUsageMetadata } from './gemini-wire-types.js';

/**
 * Canonical usage as Gemini's `usageMetadata`: the prompt count includes cached tokens (cachedContentTokenCount is
 * its cached share), candidatesTokenCount is the output without reasoning (thoughtsTokenCount), the total both.
 */
export function encodeGeminiUsage(usage: CanonicalUsage | null): GeminiUsageMetadata {
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  const thoughts = usage?.reasoningTokens ?? 0;
  const cached = usage?.cacheReadInputTokens ?? 0;
  return {
    promptTokenCount: input,
    candidatesTokenCount: Math.max(0, output - thoughts),
    totalTokenCount: input + output,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}
