// The stored shapes of prices and of what a settled request was priced with; billing computes with them under its own
// names (ModelPrice, RequestPricing), and storage keeps them without depending on billing.

/** What one model costs; every amount is an integer number of micro-units (see docs/BILLING.md). */
export interface ModelPriceRecord {
  /** the public model id */
  modelId: string;
  /** micro-units per million uncached input tokens */
  inputPerMillion: number;
  /** micro-units per million input tokens read from the vendor's prompt cache */
  cachedInputPerMillion: number;
  /** micro-units per million input tokens written to the vendor's prompt cache */
  cacheWritePerMillion: number;
  /**
   * micro-units per million input tokens written to the prompt cache with a 1-hour TTL (Anthropic `ttl: "1h"`);
   * absent: twice `inputPerMillion`, Anthropic's list rule (billing's oneHourCacheWritePerMillion)
   */
  cacheWriteOneHourPerMillion?: number;
  /** micro-units per million output tokens (reasoning included) */
  outputPerMillion: number;
  /** micro-units per generated image, keyed `<size>:<quality>`, `<size>` or `default` (billing's findImagePrice) */
  imagePrices: Record<string, number>;
  /** micro-units per minute of transcribed audio */
  audioPerMinute: number;
  /** micro-units per second of generated video */
  videoPerSecond: number;
}

/**
 * What a settled request was priced with, kept in its usage log so the bill can be explained: the token prices
 * before the ratio, the ratio applied (group × premium) and the other components before the ratio. Plain integers.
 */
export interface RequestPricingRecord {
  /** micro-units per million uncached input tokens, before the ratio */
  inputPerMillion: number;
  /** micro-units per million input tokens read from the prompt cache, before the ratio */
  cachedInputPerMillion: number;
  /** micro-units per million input tokens written to the prompt cache (5-minute TTL), before the ratio */
  cacheWritePerMillion: number;
  /** micro-units per million input tokens written to the prompt cache with a 1-hour TTL, before the ratio */
  cacheWriteOneHourPerMillion: number;
  /** micro-units per million output tokens, before the ratio */
  outputPerMillion: number;
  /** the price ratio applied, in millionths (group ratio × premium ratio) */
  priceRatioMillionths: number;
  /** micro-units of generated images, before the ratio */
  imageCost: number;
  /** milliseconds of transcribed audio */
  audioMilliseconds: number;
  /** micro-units per minute of audio, before the ratio */
  audioPerMinute: number;
  /** micro-units of generated video, before the ratio */
  videoCost: number;
}
