import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import type { GeminiUsageMetadata } from './gemini-wire-types.js';

/**
 * `usageMetadata` as canonical counts: input = promptTokenCount + toolUsePromptTokenCount; cache read =
 * cachedContentTokenCount (a subset of the prompt; Gemini reports no cache writes); output = candidates + thoughts
 * (thoughts are outside candidatesTokenCount); reasoning = thoughts.
 */
export function parseGeminiUsage(usage: GeminiUsageMetadata): CanonicalUsage {
  const reasoningTokens = count(usage.thoughtsTokenCount);
  return {
    inputTokens: count(usage.promptTokenCount) + count(usage.toolUsePromptTokenCount),
    cacheReadInputTokens: count(usage.cachedContentTokenCount),
    cacheWriteInputTokens: 0,
    outputTokens: count(usage.candidatesTokenCount) + reasoningTokens,
    reasoningTokens,
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
