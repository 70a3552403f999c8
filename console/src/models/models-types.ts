// GET /api/me/groups as the Models & prices page reads it. Prices are integer micro-units, after the group's ratio.

/** A model's prices: tokens per million, images per image (by size and quality), audio per minute, video per second. */
export interface ModelPrices {
  inputPerMillion: number;
  outputPerMillion: number;
  cachedInputPerMillion: number;
  cacheWritePerMillion: number;
  /** e.g. {"1024x1024:hd": 80000} */
  imagePrices?: Record<string, number>;
  audioPerMinute?: number;
  videoPerSecond?: number;
}

/** One model of a group. */
export interface PricedModel {
  id: string;
  /** false when no channel serves the model now */
  available: boolean;
  ownedBy: string | null;
  prices: ModelPrices;
}

/** A group the caller holds, with its models and their prices after its ratio. */
export interface PricedGroup {
  id: string;
  name: string;
  description: string;
  /** 1,500,000 = ×1.5 */
  priceRatioMillionths: number;
  models: PricedModel[];
}

/** GET /api/me/groups */
export interface PricedGroupList {
  data: PricedGroup[];
}
