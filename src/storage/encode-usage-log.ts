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
