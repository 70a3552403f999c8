import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { GatewayError } from '../core/gateway-error.js';

/** When failed sign-ins start to lock, and for how long at most. */
export interface LoginLockPolicy {
  /** failed attempts in a row that cost nothing; the next failures lock for 1 s, 2 s, 4 s, ... */
  freeFailures: number;
  /** the longest lock, in seconds */
  maxLockSeconds: number;
}

/** Who is trying to sign in: the account (by a hash of its normalised email) and the client address. */
export interface LoginAttemptSubject {
  /** SHA-256 hex of the normalised email; the same for an email that has no account */
  emailHash: string;
  /** the client's IP address */
  address: string;
}

/** Limits per account and per address; docs/API.md describes them. */
export interface LoginAttemptPolicies {
  account: LoginLockPolicy;
  address: LoginLockPolicy;
  /** how long failures are remembered, in seconds, counted from the first failure of a run */
  failureMemorySeconds: number;
}

/**
 * Defaults: an account locks after 5 failures in a row (at most 15 minutes), an address after 30 (at most an
 * hour, since many people may share it); failures are remembered for a day unless the account signs in.
 */
export const defaultLoginAttemptPolicies: LoginAttemptPolicies = {
  account: { freeFailures: 5, maxLockSeconds: 900 },
  address: { freeFailures: 30, maxLockSeconds: 3_600 },
  failureMemorySeconds: 86_400,
};

type Scope = 'account' | 'address';

/**
 * Failed console sign-ins per account and per client address with exponential back-off: after the free failures,
 * each further failure locks the account (or address) for twice as long as the one before, up to a ceiling. While
 * locked, attempts are refused with 429 before any password is checked. Counters live in memory, or in Redis
 * when the gateway shares one, so every node sees the same locks.
 */
export class LoginAttemptLimiter {
  private readonly failures: RateLimiterAbstract;
  private readonly locks: RateLimiterAbstract;
  private readonly policies: LoginAttemptPolicies;

  constructor(options: { redis?: Redis; policies?: LoginAttemptPolicies } = {}) {
    const policies = options.policies ?? defaultLoginAttemptPolicies;
    this.policies = policies;
    const longestLock = Math.max(policies.account.maxLockSeconds, policies.address.maxLockSeconds);
    // `points` is never reached for failures: the counter only counts, the locks decide.
    this.failures = createLimiter(options.redis, {
      keyPrefix: 'gateway:login:failures',
      points: Number.MAX_SAFE_INTEGER,
      duration: policies.failureMemorySeconds,
    });
    this.locks = createLimiter(options.redis, { keyPrefix: 'gateway:login:lock', points: 1, duration: longestLock });
  }

  /** Throws 429 `rate_limit_exceeded` with `Retry-After` while the account or the address is locked. */
  async assertNotLocked(subject: LoginAttemptSubject): Promise<void> {
    const [accountLock, addressLock] = await Promise.all([
      this.lockRemainingMs('account', subject),
      this.lockRemainingMs('address', subject),
    ]);
    const remainingMs = Math.max(accountLock, addressLock);
    if (remainingMs <= 0) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(remainingMs / 1000));
    throw new GatewayError(
      'rate_limit_exceeded',
      `Too many failed sign-in attempts. Retry after ${retryAfterSeconds} s.`,
      {
        headers: { 'retry-after': String(retryAfterSeconds) },
      },
    );
  }

  /** Counts a failure for the account and the address, and locks each one that is past its free failures. */
  async recordFailure(subject: LoginAttemptSubject): Promise<void> {
    await Promise.all((['account', 'address'] as const).map((scope) => this.countFailure(scope, subject)));
  }

  /** A successful sign-in clears the account's failures; the address keeps its count (one good account must not unlock guessing at others). */
  async recordSuccess(subject: LoginAttemptSubject): Promise<void> {
    const key = counterKey('account', subject);
    await Promise.all([this.failures.delete(key), this.locks.delete(key)]);
  }

  private async countFailure(scope: Scope, subject: LoginAttemptSubject): Promise<void> {
    const key = counterKey(scope, subject);
    const state = await this.failures.penalty(key, 1);
    const policy = this.policies[scope];
    const beyondFree = state.consumedPoints - policy.freeFailures;
    if (beyondFree < 0) return;
    await this.locks.block(key, lockSeconds(beyondFree, policy.maxLockSeconds));
  }

  private async lockRemainingMs(scope: Scope, subject: LoginAttemptSubject): Promise<number> {
    const state = await this.locks.get(counterKey(scope, subject));
    return state !== null && state.consumedPoints > 1 ? state.msBeforeNext : 0;
  }
}

/** 1 s for the first failure beyond the free ones, then twice as long each time, up to the ceiling. */
function lockSeconds(failuresBeyondFree: number, maxLockSeconds: number): number {
  return Math.min(maxLockSeconds, 2 ** Math.min(failuresBeyondFree, 30));
}

function counterKey(scope: Scope, subject: LoginAttemptSubject): string {
  return scope === 'account' ? `account:${subject.emailHash}` : `address:${subject.address}`;
}

function createLimiter(
  redis: Redis | undefined,
  options: { keyPrefix: string; points: number; duration: number },
): RateLimiterAbstract {
  const memory = new RateLimiterMemory(options);
  // While Redis is unreachable, each node keeps counting on its own instead of letting every attempt through.
  return redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
}
