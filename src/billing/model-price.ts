import type { ModelPrices } from '../routing/catalog-model.js';

/** What one model costs; every amount is an integer number of micro-units (see docs/BILLING.md). */
export interface ModelPrice {
  /** the public model id */
  modelId: string;
  /** micro-units per million uncached input tokens */
  inputPerMillion: number;
  /** micro-units per million input tokens read from the vendor's prompt cache */
  cachedInputPerMillion: number;
  /** micro-units per million input tokens written to the vendor's prompt cache */
  cacheWritePerMillion: number;
  /** micro-units per million output tokens (reasoning included) */
  outputPerMillion: number;
  /** micro-units per generated image, keyed `<size>:<quality>`, `<size>` or `default` (see findImagePrice) */
  imagePrices: Record<string, number>;
  /** micro-units per minute of transcribed audio */
  audioPerMinute: number;
  /** micro-units per second of generated video */
  videoPerSecond: number;
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

/** A catalog model's list prices as a ModelPrice; cache rates default to the input rate. */
export function mapCatalogPrices(modelId: string, prices: ModelPrices): ModelPrice {
  return {
    modelId,
    inputPerMillion: prices.inputPerMillion,
    cachedInputPerMillion: prices.cachedInputPerMillion ?? prices.inputPerMillion,
    cacheWritePerMillion: prices.cacheWritePerMillion ?? prices.inputPerMillion,
    outputPerMillion: prices.outputPerMillion,
    imagePrices: { ...(prices.perImage ?? {}) },
    audioPerMinute: prices.perAudioMinute ?? 0,
    videoPerSecond: prices.perVideoSecond ?? 0,
  };
}
