// The /api answers the usage logs pages read (docs/API.md: GET /api/usage/logs). Amounts are integer micro-units.

/** What a settled request's cost was computed from; see docs/BILLING.md "Cost breakdown". */
export interface UsageLogPricing {
  /** micro-units per million uncached input tokens, before the ratio */
  inputPerMillion: number;
  /** micro-units per million input tokens read from the prompt cache, before the ratio */
  cachedInputPerMillion: number;
  /** micro-units per million input tokens written to the prompt cache (5-minute TTL), before the ratio */
  cacheWritePerMillion: number;
  /** micro-units per million input tokens written with a 1-hour TTL, before the ratio (absent on older gateways) */
  cacheWriteOneHourPerMillion?: number;
  /** micro-units per million output tokens, before the ratio */
  outputPerMillion: number;
  /** the ratio applied (group × premium), millionths: 1,500,000 = ×1.5 */
  priceRatioMillionths: number;
  /** micro-units of images, before the ratio */
  imageCost: number;
  audioMilliseconds: number;
  /** micro-units per minute of audio, before the ratio */
  audioPerMinute: number;
  /** micro-units of video, before the ratio */
  videoCost: number;
}

/** One /v1 request as GET /api/usage/logs lists it. */
export interface UsageLog {
  id: string;
  /** Unix milliseconds when the request arrived */
  createdAt: number;
  requestId: string | null;
  userId: string;
  apiKeyId: string;
  model: string;
  channelId: string | null;
  endpoint: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** cache writes at every TTL (part of promptTokens) */
  cacheWriteTokens: number;
  /** of cacheWriteTokens, those written with a 1-hour TTL */
  cacheWriteOneHourTokens?: number;
  /** micro-units charged */
  cost: number;
  status: number;
  errorCode: string | null;
  latencyMs: number;
  firstTokenMs: number | null;
  streamed: boolean;
  clientIp: string;
  /** null for refused requests and rows logged before the gateway kept prices */
  pricing: UsageLogPricing | null;
}

/** One page of GET /api/usage/logs. */
export interface UsageLogPage {
  data: UsageLog[];
  /** pass as `cursor` for the next (older) page; null on the last page */
  nextCursor: string | null;
}

/** A user as GET /api/users lists them (the fields the all-logs page reads). */
export interface ListedUser {
  id: string;
  email: string;
  displayName: string;
}
