import type { ModelPrices } from '../catalog-model.js';

/** Micro-units per currency unit: prices are integers, 1 unit = 1,000,000 micro-units. */
export const microUnitsPerUnit = 1_000_000;

/** Converts a list price written in currency units (e.g. 2.5 for $2.50) to integer micro-units. */
export function toMicroUnits(units: number): number {
  return Math.round(units * microUnitsPerUnit);
}

/** Token prices from list prices written in currency units per million tokens (input, output, and optional cache rates). */
export function tokenPrices(
  inputPerMillion: number,
  outputPerMillion: number,
  cache: { cachedInput?: number; cacheWrite?: number; cacheWriteOneHour?: number } = {},
): ModelPrices {
  const prices: ModelPrices = {
    inputPerMillion: toMicroUnits(inputPerMillion),
    outputPerMillion: toMicroUnits(outputPerMillion),
  };
  if (cache.cachedInput !== undefined) prices.cachedInputPerMillion = toMicroUnits(cache.cachedInput);
  if (cache.cacheWrite !== undefined) prices.cacheWritePerMillion = toMicroUnits(cache.cacheWrite);
  if (cache.cacheWriteOneHour !== undefined) prices.cacheWriteOneHourPerMillion = toMicroUnits(cache.cacheWriteOneHour);
  return prices;
}

/** Per-image prices from currency units, keyed `<size>:<quality>`. */
export function imagePrices(pricesInUnits: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(pricesInUnits).map(([key, units]) => [key, toMicroUnits(units)]));
}
