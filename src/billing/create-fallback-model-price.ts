import type { ModelPrice } from './model-price.js';

/** Micro-units per image of a model without image prices (the fallback price's only image price). */
export const fallbackImagePrice = 40_000;

/**
 * The price of a model neither an operator nor the catalog priced: 1 currency unit per million input tokens,
 * 2 per million output tokens, 0.04 per image, 0.006 per audio minute, 0.1 per video second. Never free,
 * so an unpriced model cannot be used to drain upstream accounts for nothing.
 */
export function createFallbackModelPrice(modelId: string): ModelPrice {
  return {
    modelId,
    inputPerMillion: 1_000_000,
    cachedInputPerMillion: 1_000_000,
    cacheWritePerMillion: 1_000_000,
    outputPerMillion: 2_000_000,
    imagePrices: { default: fallbackImagePrice },
    audioPerMinute: 6_000,
    videoPerSecond: 100_000,
  };
}
