import { createRateLimitError, setRateLimitHeaders, type CounterState } from './rate-limit-refusal.js';
import {
  tokenCostOf,
  type LimitSubject,
  type RateLimitAdmission,
  type RequestRateLimiter,
} from './request-rate-limiter.js';

const minuteMs = 60_000;

/** A per-minute counter: a fixed window that starts with the first use after the previous one ended. */
interface MinuteWindow {
  used: number;
  /** Unix milliseconds; the window is over at and after this instant */
  endsAt: number;
}

/** One key's or one user's counters. */
interface SubjectCounters {
  requests: MinuteWindow;
  tokens: MinuteWindow;
  /** requests admitted and not yet released */
  inFlight: number;
}

/**
 * Rate limits of a single gateway node, counted in its memory. Every check and every change is synchronous, so an
 * admission checks all its counters and then takes them, with nothing to give back on a refusal, and costs no promise,
 * result object or key string per counter (ADR 0012). Several nodes use `SharedRequestRateLimiter` instead.
 */
export class LocalRequestRateLimiter implements RequestRateLimiter {
  private readonly counters = { key: new Map<string, SubjectCounters>(), user: new Map<string, SubjectCounters>() };
  private nextSweepAt: number;

  /** @param clock Unix milliseconds */
  constructor(private readonly clock: () => number = Date.now) {
    this.nextSweepAt = clock() + minuteMs;
  }

  async admit(subjects: LimitSubject[], estimatedTokens: number): Promise<RateLimitAdmission> {
    return this.admitAtOnce(subjects, estimatedTokens);
  }

  admitAtOnce(subjects: LimitSubject[], estimatedTokens: number): RateLimitAdmission {
    const now = this.clock();
    this.sweepIfDue(now);
    for (const subject of subjects) {
      const { requestsPerMinute, tokensPerMinute } = subject.limits;
      const counters = this.countersOf(subject);
      if (requestsPerMinute > 0 && usedIn(counters.requests, now) + 1 > requestsPerMinute) {
        throw createRateLimitError(
          'rpm',
          requestsPerMinute,
          subject,
          stateOf(counters.requests, requestsPerMinute, now),
        );
      }
      if (
        tokensPerMinute > 0 &&
        usedIn(counters.tokens, now) + tokenCostOf(estimatedTokens, tokensPerMinute) > tokensPerMinute
      ) {
        throw createRateLimitError('tpm', tokensPerMinute, subject, stateOf(counters.tokens, tokensPerMinute, now));
      }
    }
    for (const subject of subjects) {
      const { maxConcurrentRequests } = subject.limits;
      if (maxConcurrentRequests > 0 && this.countersOf(subject).inFlight >= maxConcurrentRequests) {
        throw createRateLimitError('concurrent', maxConcurrentRequests, subject, {
          remainingPoints: 0,
          msBeforeNext: 0,
        });
      }
    }
    const headers: Record<string, string> = {};
    for (const subject of subjects) {
      const { requestsPerMinute, tokensPerMinute, maxConcurrentRequests } = subject.limits;
      const counters = this.countersOf(subject);
      if (requestsPerMinute > 0)
        setRateLimitHeaders(headers, 'requests', requestsPerMinute, take(counters.requests, 1, requestsPerMinute, now));
      if (tokensPerMinute > 0)
        setRateLimitHeaders(
          headers,
          'tokens',
          tokensPerMinute,
          take(counters.tokens, tokenCostOf(estimatedTokens, tokensPerMinute), tokensPerMinute, now),
        );
      if (maxConcurrentRequests > 0) counters.inFlight += 1;
    }
    return new LocalAdmission(this, subjects, estimatedTokens, now, headers);
  }

  async refuseIfExhausted(subjects: LimitSubject[]): Promise<void> {
    const now = this.clock();
    for (const subject of subjects) {
      const { requestsPerMinute, tokensPerMinute, maxConcurrentRequests } = subject.limits;
      const counters = this.countersOf(subject);
      if (requestsPerMinute > 0 && usedIn(counters.requests, now) >= requestsPerMinute) {
        throw createRateLimitError(
          'rpm',
          requestsPerMinute,
          subject,
          stateOf(counters.requests, requestsPerMinute, now),
        );
      }
      if (tokensPerMinute > 0 && usedIn(counters.tokens, now) >= tokensPerMinute) {
        throw createRateLimitError('tpm', tokensPerMinute, subject, stateOf(counters.tokens, tokensPerMinute, now));
      }
      if (maxConcurrentRequests > 0 && counters.inFlight >= maxConcurrentRequests) {
        throw createRateLimitError('concurrent', maxConcurrentRequests, subject, {
          remainingPoints: 0,
          msBeforeNext: 0,
        });
      }
    }
  }

  /** Gives back what an admission took; called once per admission by `LocalAdmission.release`. */
  releaseAdmission(subjects: LimitSubject[], estimatedTokens: number, admittedAt: number, realTokens: number): void {
    const now = this.clock();
    for (const subject of subjects) {
      const { tokensPerMinute, maxConcurrentRequests } = subject.limits;
      const counters = this.countersOf(subject);
      if (maxConcurrentRequests > 0) counters.inFlight = Math.max(0, counters.inFlight - 1);
      if (tokensPerMinute <= 0) continue;
      const difference = realTokens - tokenCostOf(estimatedTokens, tokensPerMinute);
      const window = counters.tokens;
      if (window.endsAt > now && window.endsAt - minuteMs <= admittedAt) {
        // Still the window the estimate was taken from: correct it either way.
        window.used = Math.max(0, window.used + difference);
      } else if (difference > 0) {
        // A new window: the tokens beyond the estimate were generated in it; the estimate's excess was never taken from it.
        take(window, difference, tokensPerMinute, now);
      }
    }
  }

  private countersOf(subject: LimitSubject): SubjectCounters {
    const counters = this.counters[subject.scope];
    let found = counters.get(subject.id);
    if (!found) {
      found = { requests: { used: 0, endsAt: 0 }, tokens: { used: 0, endsAt: 0 }, inFlight: 0 };
      counters.set(subject.id, found);
    }
    return found;
  }

  /** Forgets, at most once a minute, the subjects with no request in flight whose windows are over, so memory stays bounded. */
  private sweepIfDue(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + minuteMs;
    for (const counters of [this.counters.key, this.counters.user]) {
      for (const [id, subject] of counters) {
        if (subject.inFlight === 0 && subject.requests.endsAt <= now && subject.tokens.endsAt <= now)
          counters.delete(id);
      }
    }
  }
}

/** An admission of `LocalRequestRateLimiter`. */
class LocalAdmission implements RateLimitAdmission {
  private released = false;

  constructor(
    private readonly limiter: LocalRequestRateLimiter,
    private readonly subjects: LimitSubject[],
    private readonly estimatedTokens: number,
    /** Unix milliseconds */
    private readonly admittedAt: number,
    readonly headers: Record<string, string>,
  ) {}

  release(realTokens: number): void {
    if (this.released) return;
    this.released = true;
    this.limiter.releaseAdmission(this.subjects, this.estimatedTokens, this.admittedAt, realTokens);
  }
}

function usedIn(window: MinuteWindow, now: number): number {
  return window.endsAt > now ? window.used : 0;
}

function stateOf(window: MinuteWindow, limit: number, now: number): CounterState {
  const running = window.endsAt > now;
  return {
    remainingPoints: Math.max(0, limit - (running ? window.used : 0)),
    msBeforeNext: running ? window.endsAt - now : minuteMs,
  };
}

/** Adds `points` to a window, starting a new one if the last is over; returns the state after. */
function take(window: MinuteWindow, points: number, limit: number, now: number): CounterState {
  if (window.endsAt <= now) {
    window.used = 0;
    window.endsAt = now + minuteMs;
  }
  window.used += points;
  return { remainingPoints: Math.max(0, limit - window.used), msBeforeNext: window.endsAt - now };
}
