import type { TokenUsage } from '../../core/token-usage.js';
import type { GeminiUsageMetadata } from './gemini-wire-types.js';

/**
 * `usageMetadata` as canonical counts: prompt = promptTokenCount + toolUsePromptTokenCount; cached =
 * cachedContentTokenCount (a subset of the prompt); completion = candidates + thoughts (thoughts are
 * outside candidatesTokenCount); reasoning = thoughts; total = prompt + completion.
 */
export function parseGeminiUsage(usage: GeminiUsageMetadata): TokenUsage {
  const promptTokens = count(usage.promptTokenCount) + count(usage.toolUsePromptTokenCount);
  const reasoningTokens = count(usage.thoughtsTokenCount);
  const completionTokens = count(usage.candidatesTokenCount) + reasoningTokens;
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, cachedPromptTokens: count(usage.cachedContentTokenCount), reasoningTokens };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
