import type { RefusedRequestCount, UsageLogRecord } from './billing-records.js';

/** What a rollup row adds up for one time bucket, user, key and model. */
export interface UsageSums {
  user_id: string;
  api_key_id: string;
  model: string;
  request_count: number;
  error_count: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  /** micro-units */
  cost: number;
}

/**
 * Sums usage log rows per time bucket (a UTC day, an hour, ...), user, key and model; `bucketOf` names each row's
 * bucket. Refused requests, counted without a log row each, add their count to the request and error counts.
 */
export function sumUsageLogs<Bucket extends string | number>(
  logs: readonly UsageLogRecord[],
  bucketOf: (createdAt: number) => Bucket,
  refusals: readonly RefusedRequestCount[] = [],
): Array<UsageSums & { bucket: Bucket }> {
  const sums = new Map<string, UsageSums & { bucket: Bucket }>();
  const sumOf = (bucket: Bucket, userId: string, apiKeyId: string, model: string): UsageSums & { bucket: Bucket } => {
    const key = `${bucket}\u0000${userId}\u0000${apiKeyId}\u0000${model}`;
    let sum = sums.get(key);
    if (!sum) {
      sum = {
        bucket,
        user_id: userId,
        api_key_id: apiKeyId,
        model,
        request_count: 0,
        error_count: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        cached_tokens: 0,
        cost: 0,
      };
      sums.set(key, sum);
    }
    return sum;
  };
  for (const refusal of refusals) {
    const sum = sumOf(bucketOf(refusal.minute), refusal.userId, refusal.apiKeyId, refusal.model);
    sum.request_count += refusal.count;
    sum.error_count += refusal.count;
  }
  // A batch's rows mostly repeat the row before them (one user, key and model under load): the previous row's sum is
  // reused without building and hashing its key again.
  let previous: (UsageSums & { bucket: Bucket }) | undefined;
  for (const log of logs) {
    const bucket = bucketOf(log.createdAt);
    const sum =
      previous !== undefined &&
      previous.bucket === bucket &&
      previous.user_id === log.userId &&
      previous.api_key_id === log.apiKeyId &&
      previous.model === log.model
        ? previous
        : sumOf(bucket, log.userId, log.apiKeyId, log.model);
    previous = sum;
    sum.request_count += 1;
    if (log.status >= 400) sum.error_count += 1;
    sum.prompt_tokens += log.promptTokens;
    sum.completion_tokens += log.completionTokens;
    sum.cached_tokens += log.cachedTokens;
    sum.cost += log.cost;
  }
  // In key order: every batch upserts its rollup rows in the same order, so concurrent batches cannot deadlock.
  return [...sums.entries()]
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([, sum]) => sum);
}
