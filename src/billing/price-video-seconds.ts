import type { CatalogModel } from '../routing/catalog-model.js';
import type { BillingMemory } from './billing-memory.js';
import { costOfPricing, type RequestPricing } from './request-pricing.js';
import { requireModelPrice } from './require-model-price.js';

/** The per-second price a video task is held and settled with, fixed at submit (micro-units, before the ratio). */
export interface VideoSecondPrice {
  /** micro-units per second of video, before the ratio */
  perSecond: number;
  /** the group's price ratio, in millionths */
  priceRatioMillionths: number;
}

const noTokens = { promptTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0 };

/**
 * The model's per-second video price (operator price, else catalog list price, else the operator's default) and the
 * group's ratio, as now; a model without any price is refused (404 `model_not_found`) before anything is held.
 */
export function lookUpVideoSecondPrice(memory: BillingMemory, model: CatalogModel, groupId: string): VideoSecondPrice {
  return {
    perSecond: requireModelPrice(memory, model).videoPerSecond,
    priceRatioMillionths: memory.priceRatioOf(groupId),
  };
}

/** The pricing a usage log keeps for `seconds` of video (only the video component is non-zero). */
export function priceVideoSeconds(price: VideoSecondPrice, seconds: number): RequestPricing {
  return {
    inputPerMillion: 0,
    cachedInputPerMillion: 0,
    cacheWritePerMillion: 0,
    cacheWriteOneHourPerMillion: 0,
    outputPerMillion: 0,
    priceRatioMillionths: price.priceRatioMillionths,
    imageCost: 0,
    audioMilliseconds: 0,
    audioPerMinute: 0,
    videoCost: Math.max(0, seconds) * price.perSecond,
  };
}

/** What `seconds` of video cost in micro-units: per-second price × seconds × ratio, rounded up once, like requests. */
export function costOfVideoSeconds(price: VideoSecondPrice, seconds: number): number {
  return costOfPricing(noTokens, priceVideoSeconds(price, seconds));
}
