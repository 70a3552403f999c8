import type { CanonicalUsage } from '../../core/canonical/canonical-usage.js';
import { parseOpenAiUsage } from './parse-openai-usage.js';

/** An OpenAI-wire `usage` object as canonical counts (the vendor naming variants are read by parseOpenAiUsage). */
export function parseOpenAiCanonicalUsage(value: unknown): CanonicalUsage | undefined {
  const usage = parseOpenAiUsage(value);
  if (!usage) return undefined;
  return {
    inputTokens: usage.promptTokens,
    cacheReadInputTokens: usage.cachedPromptTokens,
    cacheWriteInputTokens: usage.cacheWritePromptTokens ?? 0,
    outputTokens: usage.completionTokens,
    reasoningTokens: usage.reasoningTokens,
  };
}
