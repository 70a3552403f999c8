import type { ModelPrice } from './model-price.js';

/** A price as an administrator gives it: absent cache prices take the input price; absent media prices are 0. */
export interface ModelPriceInput {
  inputPerMillion: number;
  cachedInputPerMillion?: number | undefined;
  cacheWritePerMillion?: number | undefined;
  /** absent: 1-hour cache writes cost twice the input price (Anthropic's list rule) */
  cacheWriteOneHourPerMillion?: number | undefined;
  outputPerMillion: number;
  imagePrices?: Record<string, number> | undefined;
  audioPerMinute?: number | undefined;
  videoPerSecond?: number | undefined;
}

/** The stored price of a model from what an administrator gave, for PUT /api/prices/:model and `gateway price set`. */
export function completeModelPrice(modelId: string, input: ModelPriceInput): ModelPrice {
  return {
    modelId,
    inputPerMillion: input.inputPerMillion,
    cachedInputPerMillion: input.cachedInputPerMillion ?? input.inputPerMillion,
    cacheWritePerMillion: input.cacheWritePerMillion ?? input.inputPerMillion,
    ...(input.cacheWriteOneHourPerMillion === undefined
      ? {}
      : { cacheWriteOneHourPerMillion: input.cacheWriteOneHourPerMillion }),
    outputPerMillion: input.outputPerMillion,
    imagePrices: input.imagePrices ?? {},
    audioPerMinute: input.audioPerMinute ?? 0,
    videoPerSecond: input.videoPerSecond ?? 0,
  };
}
