import { oneHourCacheWritePerMillion, type ModelPrice } from './model-price.js';

const ratioDenominator = 1_000_000n;

/**
 * A model's prices as a group pays them: every rate multiplied by the group's ratio (millionths), each rounded up
 * to a whole micro-unit so a shown price is never below what a request is charged. For display; requests are
 * charged with the exact ratio (calculateRequestCost rounds once per request).
 */
export function applyPriceRatio(price: ModelPrice, priceRatioMillionths: number): ModelPrice {
  const scale = (amount: number): number => {
    const numerator = BigInt(amount) * BigInt(priceRatioMillionths);
    return numerator <= 0n ? 0 : Number((numerator + ratioDenominator - 1n) / ratioDenominator);
  };
  return {
    modelId: price.modelId,
    inputPerMillion: scale(price.inputPerMillion),
    cachedInputPerMillion: scale(price.cachedInputPerMillion),
    cacheWritePerMillion: scale(price.cacheWritePerMillion),
    cacheWriteOneHourPerMillion: scale(oneHourCacheWritePerMillion(price)),
    outputPerMillion: scale(price.outputPerMillion),
    imagePrices: Object.fromEntries(Object.entries(price.imagePrices).map(([key, amount]) => [key, scale(amount)])),
    audioPerMinute: scale(price.audioPerMinute),
    videoPerSecond: scale(price.videoPerSecond),
  };
}
