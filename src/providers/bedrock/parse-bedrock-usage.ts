import type { TokenUsage } from '../../core/token-usage.js';

interface BedrockUsageFields {
  inputTokens?: unknown;
  outputTokens?: unknown;
  totalTokens?: unknown;
  cacheReadInputTokens?: unknown;
  cacheWriteInputTokens?: unknown;
}

/**
 * Reads a Converse `usage` object. Bedrock reports `inputTokens` WITHOUT the tokens read from or written to the
 * prompt cache (AWS prompt-caching docs: `totalTokens` = input + output + cacheRead + cacheWrite), so the
 * OpenAI-style prompt count is the sum of the three; reads and writes are kept apart, each has its own price.
 * The total is recomputed so it always equals prompt + completion.
 */
export function parseBedrockUsage(value: unknown): TokenUsage | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const usage = value as BedrockUsageFields;
  const cacheRead = toCount(usage.cacheReadInputTokens);
  const cacheWrite = toCount(usage.cacheWriteInputTokens);
  const promptTokens = toCount(usage.inputTokens) + cacheRead + cacheWrite;
  const completionTokens = toCount(usage.outputTokens);
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    cachedPromptTokens: cacheRead,
    reasoningTokens: 0,
    ...(cacheWrite > 0 ? { cacheWritePromptTokens: cacheWrite } : {}),
  };
}

function toCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
