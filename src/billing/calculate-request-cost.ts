import type { BillableUsage } from './billable-usage.js';
import { createFallbackModelPrice } from './create-fallback-model-price.js';
import { findImagePrice, type ModelPrice } from './model-price.js';

/** The ratio that leaves prices unchanged: ratios are integers in millionths. */
export const neutralPriceRatio = 1_000_000;

const tokensPerPriceUnit = 1_000_000n;
const millisecondsPerMinute = 60_000n;
const ratioDenominator = 1_000_000n;
// Every component is brought to this common denominator (micro-units × 60 000 000 000) before rounding.
const commonDenominator = tokensPerPriceUnit * millisecondsPerMinute;

/**
 * The cost of a request in micro-units: the exact rational sum of every priced component, multiplied by the
 * group's price ratio, rounded up once (never per component). Computed with BigInt so no product loses digits.
 */
export function calculateRequestCost(usage: BillableUsage, price: ModelPrice, priceRatioMillionths: number = neutralPriceRatio): number {
  const cachedTokens = BigInt(Math.min(usage.cachedPromptTokens, usage.promptTokens));
  const cacheWriteTokens = BigInt(Math.min(usage.cacheWritePromptTokens, usage.promptTokens - Number(cachedTokens)));
  const uncachedTokens = BigInt(usage.promptTokens) - cachedTokens - cacheWriteTokens;
  const tokenMicroUnitsTimesMillion =
    uncachedTokens * BigInt(price.inputPerMillion) +
    cachedTokens * BigInt(price.cachedInputPerMillion) +
    cacheWriteTokens * BigInt(price.cacheWritePerMillion) +
    BigInt(usage.completionTokens) * BigInt(price.outputPerMillion);

  const fallbackImagePrice = findImagePrice(createFallbackModelPrice(price.modelId), undefined, undefined) ?? 0;
  let imageMicroUnits = 0n;
  for (const image of usage.images) imageMicroUnits += BigInt(findImagePrice(price, image.size, image.quality) ?? fallbackImagePrice);

  const numerator =
    tokenMicroUnitsTimesMillion * millisecondsPerMinute +
    imageMicroUnits * commonDenominator +
    BigInt(usage.audioMilliseconds) * BigInt(price.audioPerMinute) * tokensPerPriceUnit +
    BigInt(usage.videoSeconds) * BigInt(price.videoPerSecond) * commonDenominator;
  return Number(divideRoundingUp(numerator * BigInt(priceRatioMillionths), commonDenominator * ratioDenominator));
}

function divideRoundingUp(numerator: bigint, denominator: bigint): bigint {
  if (numerator <= 0n) return 0n;
  return (numerator + denominator - 1n) / denominator;
}
