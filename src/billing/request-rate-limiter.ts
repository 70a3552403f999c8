import type { RequestLimits } from '../storage/billing-records.js';

/** Who a limit applies to. */
export interface LimitSubject {
  /** `key` or `user` */
  scope: 'key' | 'user';
  id: string;
  /** effective limits (0 = unlimited) */
  limits: { requestsPerMinute: number; tokensPerMinute: number; maxConcurrentRequests: number };
}

/** What an admitted request took from its counters. */
export interface RateLimitAdmission {
  /** `x-ratelimit-*` headers for the response */
  readonly headers: Record<string, string>;
  /**
   * Gives back the concurrency slots and corrects the token counters from the estimate to the real count (tokens
   * beyond the estimate are added, an estimate above the real count is given back). Later calls do nothing.
   */
  release(realTokens: number): void;
}

/** Requests per minute, tokens per minute and concurrent requests per key and per user. */
export interface RequestRateLimiter {
  /** Takes a request slot, the token estimate and a concurrency slot for every subject, or throws 429 `rate_limit_exceeded` taking nothing. */
  admit(subjects: LimitSubject[], estimatedTokens: number): Promise<RateLimitAdmission>;
  /**
   * `admit` done at once, with no promise, by a limiter that counts in this process's memory; absent where counters
   * live elsewhere (Redis). Lets admission check and take counters and balance in one turn of the event loop.
   */
  admitAtOnce?(subjects: LimitSubject[], estimatedTokens: number): RateLimitAdmission;
  /**
   * Throws the 429 `admit` would throw when a counter is already used up, taking nothing: the check made before a
   * request's body is read. A counter with room left passes, even if this request's tokens will not fit.
   */
  refuseIfExhausted(subjects: LimitSubject[]): Promise<void>;
}

/** Merges a subject's own limits with the configured defaults. */
export function effectiveLimits(own: RequestLimits, defaults: RequestLimits): LimitSubject['limits'] {
  return {
    requestsPerMinute: own.requestsPerMinute ?? defaults.requestsPerMinute ?? 0,
    tokensPerMinute: own.tokensPerMinute ?? defaults.tokensPerMinute ?? 0,
    maxConcurrentRequests: own.maxConcurrentRequests ?? defaults.maxConcurrentRequests ?? 0,
  };
}

/** The tokens a request's estimate takes from a tokens-per-minute counter: at least one, at most the whole limit. */
export function tokenCostOf(estimatedTokens: number, tokensPerMinute: number): number {
  return Math.min(Math.max(estimatedTokens, 1), tokensPerMinute);
}
