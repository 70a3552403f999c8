import type { UsageLogRecord } from './billing-records.js';
import type { UsageLogPricingColumns, UsageLogRequestIdColumns, UsageLogsTable } from './database-schema.js';

/** The `usage_logs` row of a usage log record (pricing columns null when the request had no pricing). */
export function encodeUsageLog(
  record: UsageLogRecord,
): UsageLogsTable & UsageLogRequestIdColumns & UsageLogPricingColumns {
  const pricing = record.pricing;
  return {
    id: record.id,
    created_at: record.createdAt,
    user_id: record.userId,
    api_key_id: record.apiKeyId,
    model: record.model,
    channel_id: record.channelId,
    endpoint: record.endpoint,
    prompt_tokens: record.promptTokens,
    completion_tokens: record.completionTokens,
    cached_tokens: record.cachedTokens,
    cache_write_tokens: record.cacheWriteTokens,
    cost: record.cost,
    status: record.status,
    error_code: record.errorCode,
    latency_ms: record.latencyMs,
    first_token_ms: record.firstTokenMs,
    streamed: record.streamed ? 1 : 0,
    client_ip: record.clientIp,
    request_id: record.requestId,
    price_input_per_million: pricing?.inputPerMillion ?? null,
    price_cached_input_per_million: pricing?.cachedInputPerMillion ?? null,
    price_cache_write_per_million: pricing?.cacheWritePerMillion ?? null,
    price_output_per_million: pricing?.outputPerMillion ?? null,
    price_ratio_millionths: pricing?.priceRatioMillionths ?? null,
    image_cost: pricing?.imageCost ?? null,
    audio_milliseconds: pricing?.audioMilliseconds ?? null,
    price_audio_per_minute: pricing?.audioPerMinute ?? null,
    video_cost: pricing?.videoCost ?? null,
    cache_write_one_hour_tokens: record.cacheWriteOneHourTokens ?? 0,
    price_cache_write_one_hour_per_million: pricing?.cacheWriteOneHourPerMillion ?? null,
  };
}

/** The `usage_logs` columns in the order `usageLogValues` gives their values (the order of `encodeUsageLog`'s keys). */
export const usageLogColumns = [
  'id',
  'created_at',
  'user_id',
  'api_key_id',
  'model',
  'channel_id',
  'endpoint',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'cache_write_tokens',
  'cost',
  'status',
  'error_code',
  'latency_ms',
  'first_token_ms',
  'streamed',
  'client_ip',
  'request_id',
  'price_input_per_million',
  'price_cached_input_per_million',
  'price_cache_write_per_million',
  'price_output_per_million',
  'price_ratio_millionths',
  'image_cost',
  'audio_milliseconds',
  'price_audio_per_minute',
  'video_cost',
  'cache_write_one_hour_tokens',
  'price_cache_write_one_hour_per_million',
] as const satisfies ReadonlyArray<keyof ReturnType<typeof encodeUsageLog>>;

/**
 * The values of `encodeUsageLog`'s row in `usageLogColumns` order, as one array: SQLite's writer binds it to the
 * INSERT as it is, with no row object built and then copied into an array for every usage log.
 */
export function usageLogValues(record: UsageLogRecord): unknown[] {
  const pricing = record.pricing;
  return [
    record.id,
    record.createdAt,
    record.userId,
    record.apiKeyId,
    record.model,
    record.channelId,
    record.endpoint,
    record.promptTokens,
    record.completionTokens,
    record.cachedTokens,
    record.cacheWriteTokens,
    record.cost,
    record.status,
    record.errorCode,
    record.latencyMs,
    record.firstTokenMs,
    record.streamed ? 1 : 0,
    record.clientIp,
    record.requestId,
    pricing?.inputPerMillion ?? null,
    pricing?.cachedInputPerMillion ?? null,
    pricing?.cacheWritePerMillion ?? null,
    pricing?.outputPerMillion ?? null,
    pricing?.priceRatioMillionths ?? null,
    pricing?.imageCost ?? null,
    pricing?.audioMilliseconds ?? null,
    pricing?.audioPerMinute ?? null,
    pricing?.videoCost ?? null,
    record.cacheWriteOneHourTokens ?? 0,
    pricing?.cacheWriteOneHourPerMillion ?? null,
  ];
}
