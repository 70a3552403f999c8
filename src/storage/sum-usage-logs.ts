import type { UsageLogRecord } from './billing-records.js';

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

/** Sums usage log rows per time bucket (a UTC day, an hour, ...), user, key and model; `bucketOf` names each row's bucket. */
export function sumUsageLogs<Bucket extends string | number>(
  logs: readonly UsageLogRecord[],
  bucketOf: (createdAt: number) => Bucket,
): Array<UsageSums & { bucket: Bucket }> {
  const sums = new Map<string, UsageSums & { bucket: Bucket }>();
  for (const log of logs) {
    const bucket = bucketOf(log.createdAt);
    const key = `${bucket}\u0000${log.userId}\u0000${log.apiKeyId}\u0000${log.model}`;
    let sum = sums.get(key);
    if (!sum) {
      sum = {
        bucket,
        user_id: log.userId,
        api_key_id: log.apiKeyId,
        model: log.model,
        request_count: 0,
        error_count: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        cached_tokens: 0,
        cost: 0,
      };
      sums.set(key, sum);
    }
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
