import type { BillableUsage } from './billable-usage.js';
import type { ModelPrice } from './model-price.js';
import { costOfPricing, priceRequest } from './request-pricing.js';

/** The ratio that leaves prices unchanged: ratios are integers in millionths. */
export const neutralPriceRatio = 1_000_000;

/**
 * The cost of a request in micro-units: the exact rational sum of every priced component, multiplied by the
 * group's price ratio, rounded up once (never per component). Computed with BigInt so no product loses digits.
 * Settlement records the same pricing (priceRequest) in the usage log, so the bill can be explained from it.
 */
export function calculateRequestCost(
  usage: BillableUsage,
  price: ModelPrice,
  priceRatioMillionths: number = neutralPriceRatio,
): number {
  return costOfPricing(
    {
      promptTokens: usage.promptTokens,
      cachedTokens: usage.cachedPromptTokens,
      cacheWriteTokens: usage.cacheWritePromptTokens,
      cacheWriteOneHourTokens: usage.cacheWriteOneHourPromptTokens,
      completionTokens: usage.completionTokens,
    },
    priceRequest(usage, price, priceRatioMillionths),
  );
}
