import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { GatewayError } from '../core/gateway-error.js';
import type { RequestLimits } from '../storage/billing-records.js';

/** Who a limit applies to. */
export interface LimitSubject {
  /** `key` or `user` */
  scope: 'key' | 'user';
  id: string;
  /** effective limits (0 = unlimited) */
  limits: { requestsPerMinute: number; tokensPerMinute: number; maxConcurrentRequests: number };
}

/** Slots taken by an admitted request, given back by `release`. */
export interface RateLimitAdmission {
  /** `x-ratelimit-*` headers for the response */
  headers: Record<string, string>;
  /** subjects whose concurrency slot this request holds */
  concurrencyHeld: LimitSubject[];
  /** every counter this admission consumed, so a refused admission can give all of it back and `release` can correct the token counts */
  consumed: Array<{ kind: string; points: number; durationSeconds: number; subject: LimitSubject; cost: number }>;
}

// A crashed node's concurrency slots expire after this long instead of blocking a key forever.
const concurrencySlotLifetimeSeconds = 900;

/**
 * Requests per minute, tokens per minute and concurrent requests per key and per user, with
 * rate-limiter-flexible counters in memory or, with several nodes, in Redis.
 */
export class RequestRateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly redis: Redis | undefined) {}

  /** Merges a subject's own limits with the configured defaults. */
  static effectiveLimits(own: RequestLimits, defaults: RequestLimits): LimitSubject['limits'] {
    return {
      requestsPerMinute: own.requestsPerMinute ?? defaults.requestsPerMinute ?? 0,
      tokensPerMinute: own.tokensPerMinute ?? defaults.tokensPerMinute ?? 0,
      maxConcurrentRequests: own.maxConcurrentRequests ?? defaults.maxConcurrentRequests ?? 0,
    };
  }

  /** Takes a request slot, the token estimate and a concurrency slot for every subject, or throws 429 `rate_limit_exceeded`. */
  async admit(subjects: LimitSubject[], estimatedTokens: number): Promise<RateLimitAdmission> {
    const admission: RateLimitAdmission = { headers: {}, concurrencyHeld: [], consumed: [] };
    try {
      for (const subject of subjects) {
        const { requestsPerMinute, tokensPerMinute } = subject.limits;
        if (requestsPerMinute > 0) {
          const state = await this.consume('rpm', requestsPerMinute, 60, subject, 1, 'requests');
          admission.consumed.push({ kind: 'rpm', points: requestsPerMinute, durationSeconds: 60, subject, cost: 1 });
          setHeaders(admission.headers, 'requests', requestsPerMinute, state);
        }
        if (tokensPerMinute > 0) {
          const cost = Math.min(Math.max(estimatedTokens, 1), tokensPerMinute);
          const state = await this.consume('tpm', tokensPerMinute, 60, subject, cost, 'tokens');
          admission.consumed.push({ kind: 'tpm', points: tokensPerMinute, durationSeconds: 60, subject, cost });
          setHeaders(admission.headers, 'tokens', tokensPerMinute, state);
        }
      }
      for (const subject of subjects) {
        if (subject.limits.maxConcurrentRequests <= 0) continue;
        await this.consume('concurrent', subject.limits.maxConcurrentRequests, concurrencySlotLifetimeSeconds, subject, 1, 'concurrent requests');
        admission.concurrencyHeld.push(subject);
      }
    } catch (error) {
      // A refused request uses no quota: give back what the earlier checks took.
      for (const entry of admission.consumed) {
        if (entry.kind !== 'concurrent') void this.limiter(entry.kind, entry.points, entry.durationSeconds).reward(counterKey(entry.subject), entry.cost).catch(() => undefined);
      }
      this.release(admission, undefined);
      throw error;
    }
    return admission;
  }

  /**
   * Gives back concurrency slots and corrects the token counters from the estimate to the real count: tokens
   * beyond the estimate are added, an estimate above the real count is given back.
   */
  release(admission: RateLimitAdmission, realTokens: number | undefined): void {
    for (const subject of admission.concurrencyHeld) {
      void this.limiter('concurrent', subject.limits.maxConcurrentRequests, concurrencySlotLifetimeSeconds).reward(counterKey(subject), 1).catch(() => undefined);
    }
    admission.concurrencyHeld = [];
    if (realTokens === undefined) return;
    for (const entry of admission.consumed) {
      if (entry.kind !== 'tpm') continue;
      const limiter = this.limiter('tpm', entry.points, entry.durationSeconds);
      const difference = realTokens - entry.cost;
      if (difference > 0) void limiter.penalty(counterKey(entry.subject), difference).catch(() => undefined);
      else if (difference < 0) void limiter.reward(counterKey(entry.subject), -difference).catch(() => undefined);
    }
  }

  private async consume(kind: string, points: number, durationSeconds: number, subject: LimitSubject, cost: number, what: string): Promise<RateLimiterRes> {
    try {
      return await this.limiter(kind, points, durationSeconds).consume(counterKey(subject), cost);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // rate-limiter-flexible counts refused attempts too; a refused request must not use up quota.
      await this.limiter(kind, points, durationSeconds).reward(counterKey(subject), cost).catch(() => undefined);
      throw createRateLimitError(kind, points, subject, what, rejection);
    }
  }

  /**
   * Throws the 429 `admit` would throw when a counter is already used up, taking nothing: the check made before a
   * request's body is read. A counter with room left passes, even if this request's tokens will not fit.
   */
  async refuseIfExhausted(subjects: LimitSubject[]): Promise<void> {
    for (const subject of subjects) {
      const { requestsPerMinute, tokensPerMinute, maxConcurrentRequests } = subject.limits;
      const counters: Array<[kind: string, points: number, durationSeconds: number, what: string]> = [
        ['rpm', requestsPerMinute, 60, 'requests'],
        ['tpm', tokensPerMinute, 60, 'tokens'],
        ['concurrent', maxConcurrentRequests, concurrencySlotLifetimeSeconds, 'concurrent requests'],
      ];
      for (const [kind, points, durationSeconds, what] of counters) {
        if (points <= 0) continue;
        const state = await this.limiter(kind, points, durationSeconds).get(counterKey(subject));
        if (state && state.consumedPoints >= points) throw createRateLimitError(kind, points, subject, what, state);
      }
    }
  }

  private limiter(kind: string, points: number, durationSeconds: number): RateLimiterAbstract {
    const name = `${kind}:${points}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const keyPrefix = `gateway:rl:${kind}:${points}`;
      const memoryLimiter = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
      // While Redis is unreachable, each node counts on its own instead of failing every request.
      limiter = this.redis
        ? new RateLimiterRedis({ storeClient: this.redis, keyPrefix, points, duration: durationSeconds, insuranceLimiter: memoryLimiter })
        : memoryLimiter;
      this.limiters.set(name, limiter);
    }
    return limiter;
  }
}

function createRateLimitError(kind: string, points: number, subject: LimitSubject, what: string, state: RateLimiterRes): GatewayError {
  const retryAfterSeconds = kind === 'concurrent' ? 1 : Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  const headers: Record<string, string> = { 'retry-after': String(retryAfterSeconds) };
  if (kind === 'rpm') setHeaders(headers, 'requests', points, state);
  if (kind === 'tpm') setHeaders(headers, 'tokens', points, state);
  return new GatewayError(
    'rate_limit_exceeded',
    `Rate limit reached for this ${subject.scope === 'key' ? 'API key' : 'user'}: at most ${points} ${what}${kind === 'concurrent' ? ' at once' : ' per minute'}. Please slow down and retry after ${retryAfterSeconds} s.`,
    { headers },
  );
}

function counterKey(subject: LimitSubject): string {
  return `${subject.scope}:${subject.id}`;
}

/** The `x-ratelimit-*` header names of each unit, built once rather than per request. */
const headerNames = {
  requests: { limit: 'x-ratelimit-limit-requests', remaining: 'x-ratelimit-remaining-requests', reset: 'x-ratelimit-reset-requests' },
  tokens: { limit: 'x-ratelimit-limit-tokens', remaining: 'x-ratelimit-remaining-tokens', reset: 'x-ratelimit-reset-tokens' },
} as const;

// With a key and a user limit, the tighter one (fewer remaining) is what the client sees.
function setHeaders(headers: Record<string, string>, unit: 'requests' | 'tokens', limit: number, state: RateLimiterRes): void {
  const names = headerNames[unit];
  const previous = headers[names.remaining];
  if (previous !== undefined && Number(previous) <= state.remainingPoints) return;
  headers[names.limit] = String(limit);
  headers[names.remaining] = String(Math.max(0, state.remainingPoints));
  headers[names.reset] = `${Math.max(0, Math.ceil(state.msBeforeNext / 1000))}s`;
}
