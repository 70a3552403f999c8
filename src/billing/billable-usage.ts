/** Everything a request consumed that has a price; the input of cost calculation. */
export interface BillableUsage {
  /** all input tokens, cached and cache-write ones included */
  promptTokens: number;
  /** input tokens read from the vendor's prompt cache (part of promptTokens) */
  cachedPromptTokens: number;
  /** input tokens written to the vendor's prompt cache (part of promptTokens), at every TTL */
  cacheWritePromptTokens: number;
  /** of cacheWritePromptTokens, those written with a 1-hour TTL (Anthropic `ephemeral_1h_input_tokens`), priced apart */
  cacheWriteOneHourPromptTokens: number;
  /** output tokens, reasoning included */
  completionTokens: number;
  /** generated images, each with its size and quality */
  images: ReadonlyArray<{ size: string | undefined; quality: string | undefined }>;
  /** milliseconds of audio transcribed */
  audioMilliseconds: number;
  /** seconds of video generated */
  videoSeconds: number;
}

/** Usage of nothing: a request that failed before consuming anything. */
export const emptyBillableUsage: BillableUsage = {
  promptTokens: 0,
  cachedPromptTokens: 0,
  cacheWritePromptTokens: 0,
  cacheWriteOneHourPromptTokens: 0,
  completionTokens: 0,
  images: [],
  audioMilliseconds: 0,
  videoSeconds: 0,
};
