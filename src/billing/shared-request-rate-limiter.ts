import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createRateLimitError, setRateLimitHeaders, type CounterKind } from './rate-limit-refusal.js';
import {
  tokenCostOf,
  type LimitSubject,
  type RateLimitAdmission,
  type RequestRateLimiter,
} from './request-rate-limiter.js';

// A crashed node's concurrency slots expire after this long instead of blocking a key forever.
const concurrencySlotLifetimeSeconds = 900;
const minuteSeconds = 60;

/** A counter an admission took from. */
interface TakenCounter {
  kind: CounterKind;
  /** the counter's limit */
  points: number;
  subject: LimitSubject;
  /** points taken */
  cost: number;
}

/**
 * Rate limits shared by several gateway nodes: rate-limiter-flexible counters in Redis, each node counting on its own
 * (in memory) while Redis is unreachable. Every counter operation is a Redis round trip, so counters are taken one
 * after another and given back when a later one refuses.
 */
export class SharedRequestRateLimiter implements RequestRateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly redis: Redis) {}

  async admit(subjects: LimitSubject[], estimatedTokens: number): Promise<RateLimitAdmission> {
    const headers: Record<string, string> = {};
    const taken: TakenCounter[] = [];
    try {
      for (const subject of subjects) {
        const { requestsPerMinute, tokensPerMinute } = subject.limits;
        if (requestsPerMinute > 0) {
          const state = await this.take({ kind: 'rpm', points: requestsPerMinute, subject, cost: 1 }, taken);
          setRateLimitHeaders(headers, 'requests', requestsPerMinute, state);
        }
        if (tokensPerMinute > 0) {
          const state = await this.take(
            { kind: 'tpm', points: tokensPerMinute, subject, cost: tokenCostOf(estimatedTokens, tokensPerMinute) },
            taken,
          );
          setRateLimitHeaders(headers, 'tokens', tokensPerMinute, state);
        }
      }
      for (const subject of subjects) {
        const { maxConcurrentRequests } = subject.limits;
        if (maxConcurrentRequests > 0)
          await this.take({ kind: 'concurrent', points: maxConcurrentRequests, subject, cost: 1 }, taken);
      }
    } catch (error) {
      // A refused request uses no quota: give back what the earlier checks took.
      for (const counter of taken)
        void this.limiterOf(counter)
          .reward(counterKey(counter.subject), counter.cost)
          .catch(() => undefined);
      throw error;
    }
    let released = false;
    return {
      headers,
      release: (realTokens) => {
        if (released) return;
        released = true;
        this.release(taken, realTokens);
      },
    };
  }

  async refuseIfExhausted(subjects: LimitSubject[]): Promise<void> {
    for (const subject of subjects) {
      const { requestsPerMinute, tokensPerMinute, maxConcurrentRequests } = subject.limits;
      const counters: Array<[kind: CounterKind, points: number]> = [
        ['rpm', requestsPerMinute],
        ['tpm', tokensPerMinute],
        ['concurrent', maxConcurrentRequests],
      ];
      for (const [kind, points] of counters) {
        if (points <= 0) continue;
        const state = await this.limiterOf({ kind, points }).get(counterKey(subject));
        if (state && state.consumedPoints >= points) throw createRateLimitError(kind, points, subject, state);
      }
    }
  }

  /** Takes a counter's cost, noting it in `taken`, or throws its 429 having given the cost back. */
  private async take(counter: TakenCounter, taken: TakenCounter[]): Promise<RateLimiterRes> {
    const limiter = this.limiterOf(counter);
    try {
      const state = await limiter.consume(counterKey(counter.subject), counter.cost);
      taken.push(counter);
      return state;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // rate-limiter-flexible counts refused attempts too; a refused request must not use up quota.
      await limiter.reward(counterKey(counter.subject), counter.cost).catch(() => undefined);
      throw createRateLimitError(counter.kind, counter.points, counter.subject, rejection);
    }
  }

  private release(taken: TakenCounter[], realTokens: number): void {
    for (const counter of taken) {
      const limiter = this.limiterOf(counter);
      const key = counterKey(counter.subject);
      if (counter.kind === 'concurrent') {
        void limiter.reward(key, 1).catch(() => undefined);
      } else if (counter.kind === 'tpm') {
        const difference = realTokens - counter.cost;
        if (difference > 0) void limiter.penalty(key, difference).catch(() => undefined);
        else if (difference < 0) void limiter.reward(key, -difference).catch(() => undefined);
      }
    }
  }

  private limiterOf({ kind, points }: { kind: CounterKind; points: number }): RateLimiterAbstract {
    const name = `${kind}:${points}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const keyPrefix = `gateway:rl:${name}`;
      const duration = kind === 'concurrent' ? concurrencySlotLifetimeSeconds : minuteSeconds;
      // While Redis is unreachable, each node counts on its own instead of failing every request.
      const insuranceLimiter = new RateLimiterMemory({ keyPrefix, points, duration });
      limiter = new RateLimiterRedis({ storeClient: this.redis, keyPrefix, points, duration, insuranceLimiter });
      this.limiters.set(name, limiter);
    }
    return limiter;
  }
}

function counterKey(subject: LimitSubject): string {
  return `${subject.scope}:${subject.id}`;
}
