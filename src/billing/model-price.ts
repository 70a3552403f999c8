import type { ModelPriceRecord } from '../storage/price-records.js';
import type { ModelPrices } from '../routing/catalog-model.js';

/** What one model costs; every amount is an integer number of micro-units (see docs/BILLING.md). */
export type ModelPrice = ModelPriceRecord;

/** Anthropic's list rule for a price without its own 1-hour cache-write rate: 1-hour writes cost twice the input. */
const oneHourWriteInputMultiple = 2;

/** The price of a million tokens written to the prompt cache with a 1-hour TTL: the model's own, else 2 × input. */
export function oneHourCacheWritePerMillion(price: ModelPrice): number {
  return price.cacheWriteOneHourPerMillion ?? price.inputPerMillion * oneHourWriteInputMultiple;
}

/** Key of `imagePrices` used when no size-specific price exists. */
export const defaultImagePriceKey = 'default';

/**
 * The price of one image: `<size>:<quality>`, then `<size>:standard` when no quality was asked for, then `<size>`,
 * then the dearest quality of that size, then `default`, then the dearest image of the model (a hold must never
 * be too small); undefined when the model has no image prices at all.
 */
export function findImagePrice(
  price: ModelPrice,
  size: string | undefined,
  quality: string | undefined,
): number | undefined {
  const prices = price.imagePrices;
  const candidates = [
    size && quality ? `${size}:${quality}` : undefined,
    size && !quality ? `${size}:standard` : undefined,
    size,
  ];
  for (const candidate of candidates) {
    if (candidate !== undefined && prices[candidate] !== undefined) return prices[candidate];
  }
  const sameSize = Object.entries(prices).filter(([key]) => size !== undefined && key.startsWith(`${size}:`));
  if (sameSize.length > 0) return Math.max(...sameSize.map(([, value]) => value));
  if (prices[defaultImagePriceKey] !== undefined) return prices[defaultImagePriceKey];
  const all = Object.values(prices);
  return all.length > 0 ? Math.max(...all) : undefined;
}

/** A catalog model's list prices as a ModelPrice; cache rates default to the input rate (1-hour writes to 2 × input). */
export function mapCatalogPrices(modelId: string, prices: ModelPrices): ModelPrice {
  return {
    modelId,
    inputPerMillion: prices.inputPerMillion,
    cachedInputPerMillion: prices.cachedInputPerMillion ?? prices.inputPerMillion,
    cacheWritePerMillion: prices.cacheWritePerMillion ?? prices.inputPerMillion,
    ...(prices.cacheWriteOneHourPerMillion === undefined
      ? {}
      : { cacheWriteOneHourPerMillion: prices.cacheWriteOneHourPerMillion }),
    outputPerMillion: prices.outputPerMillion,
    imagePrices: { ...(prices.perImage ?? {}) },
    audioPerMinute: prices.perAudioMinute ?? 0,
    videoPerSecond: prices.perVideoSecond ?? 0,
  };
}
