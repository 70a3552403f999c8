// What the billing tests of prompt-cache pricing share: four distinct prices, the eight-word prompt the simulators
// count, and the cost computed by hand.
import type { ModelPrice } from '../../src/billing/model-price.js';

/** Four different prices, so a token billed at the wrong one changes the cost: 1, 0.1, 5 and 3 micro-units a token. */
export function cachePrice(modelId: string): ModelPrice {
  return {
    modelId,
    inputPerMillion: 1_000_000,
    cachedInputPerMillion: 100_000,
    cacheWritePerMillion: 5_000_000,
    outputPerMillion: 3_000_000,
    imagePrices: {},
    audioPerMinute: 0,
    videoPerSecond: 0,
  };
}

/**
 * The simulators count words: this prompt is 8 input tokens, 4 of them read from the cache (for cache models), and
 * the answer "Echo: one … eight" is 9 tokens. Anthropic also writes 1 token to the cache, Bedrock 2.
 */
export const cachedPrompt = {
  text: 'one two three four five six seven eight',
  promptTokens: 8,
  cachedTokens: 4,
  completionTokens: 9,
} as const;

/** The cost in micro-units, computed by hand: uncached input at 1, cache reads at 0.1, writes at 5, output at 3, rounded up once. */
export function expectedCachedPromptCost(cacheWriteTokens: number): number {
  const uncached = cachedPrompt.promptTokens - cachedPrompt.cachedTokens - cacheWriteTokens;
  const tenthsOfMicroUnits =
    uncached * 10 + cachedPrompt.cachedTokens * 1 + cacheWriteTokens * 50 + cachedPrompt.completionTokens * 30;
  return Math.ceil(tenthsOfMicroUnits / 10);
}
