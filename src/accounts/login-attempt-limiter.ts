import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { GatewayError } from '../core/gateway-error.js';
import type { PasswordCheck } from './password-hash.js';

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
  /** the client's IP address (resolved through trusted proxies, GATEWAY_TRUST_PROXY) */
  address: string;
}

/** How many failures against emails without a password account one address may cost in hashing work. */
export interface UnknownAccountPolicy {
  /** such failures per address within the window whose password is really hashed */
  hashedFailuresPerAddress: number;
  /** window length in seconds, counted from the first such failure */
  windowSeconds: number;
}

/** Limits per account and per address; docs/API.md (Sign-in protection) describes them. */
export interface LoginAttemptPolicies {
  account: LoginLockPolicy;
  /** counts only failures against accounts that exist and have a password */
  address: LoginLockPolicy;
  /** failures against emails without a password account: never a lock, only less hashing */
  unknownAccounts: UnknownAccountPolicy;
  /** how long failures are remembered, in seconds, counted from the first failure of a run */
  failureMemorySeconds: number;
}

/**
 * Defaults: an account locks after 5 failures in a row (at most 15 minutes), an address after 30 failures against
 * real accounts (at most an hour, since many people may share it); failures are remembered for a day unless the
 * account signs in. Past 30 failures on unknown emails in 10 minutes, an address's further ones are not hashed.
 */
export const defaultLoginAttemptPolicies: LoginAttemptPolicies = {
  account: { freeFailures: 5, maxLockSeconds: 900 },
  address: { freeFailures: 30, maxLockSeconds: 3_600 },
  unknownAccounts: { hashedFailuresPerAddress: 30, windowSeconds: 600 },
  failureMemorySeconds: 86_400,
};

/** Longest one password check may hold its account's slot, in seconds, should its node die meanwhile. */
const inFlightSeconds = 60;

type Scope = 'account' | 'address';

/** What counting an attempt did, so a success or an unchecked attempt can undo its own part. */
interface CountedAttempt {
  accountExists: boolean;
  accountLocked: boolean;
  addressLocked: boolean;
}

/**
 * Failed console sign-ins per account and per client address with exponential back-off. Each check reserves its
 * account first (one check in flight per account, others get 429 at once) and is counted as a failure before the
 * password is hashed, so parallel guesses cannot outrun the lock; a success takes the count back. While locked,
 * attempts are refused with 429 before any password is checked. Failures against emails that have no password
 * account never lock an address (one client must not lock out everyone behind it); past a per-address budget they
 * are answered as wrong after the usual time without hashing. Counters live in memory, or in Redis when the gateway
 * shares one, so every node sees the same locks.
 */
export class LoginAttemptLimiter {
  private readonly failures: RateLimiterAbstract;
  private readonly locks: RateLimiterAbstract;
  private readonly inFlight: RateLimiterAbstract;
  private readonly unknownFailures: RateLimiterAbstract;
  private readonly policies: LoginAttemptPolicies;
  /** a running estimate of one password check's duration, in milliseconds, to answer unhashed refusals as slowly */
  private checkMilliseconds = 50;

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
    this.inFlight = createLimiter(options.redis, {
      keyPrefix: 'gateway:login:in-flight',
      points: 1,
      duration: inFlightSeconds,
    });
    this.unknownFailures = createLimiter(options.redis, {
      keyPrefix: 'gateway:login:unknown',
      points: Number.MAX_SAFE_INTEGER,
      duration: policies.unknownAccounts.windowSeconds,
    });
  }

  /**
   * Runs one password check under the limits: 429 `rate_limit_exceeded` with `Retry-After` while another check of
   * the same account runs or the account or address is locked; otherwise the attempt is counted, `check` runs and a
   * valid outcome clears the account. `accountExists` (an active account with a password) decides whether a failure
   * counts on the address's lock or only on its unknown-email budget.
   */
  async checkPassword(
    subject: LoginAttemptSubject,
    accountExists: boolean,
    check: () => Promise<PasswordCheck>,
  ): Promise<PasswordCheck> {
    await this.reserve(subject);
    try {
      await this.assertNotLocked(subject);
      if (!accountExists && (await this.unknownBudgetSpent(subject.address))) {
        await this.countFailure('account', subject);
        await sleep(this.checkMilliseconds);
        return { valid: false, needsRehash: false };
      }
      const [accountLocked, addressLocked] = await Promise.all([
        this.countFailure('account', subject),
        accountExists
          ? this.countFailure('address', subject)
          : this.unknownFailures.penalty(addressKey(subject), 1).then(() => false),
      ]);
      const counted: CountedAttempt = { accountExists, accountLocked, addressLocked };
      const outcome = await this.timed(check).catch(async (error: unknown) => {
        // Not checked (the hasher was busy): the attempt must not cost the user a lock.
        await this.takeBack(subject, counted);
        throw error;
      });
      if (outcome.valid) await this.recordSuccess(subject, counted);
      return outcome;
    } finally {
      await this.inFlight.delete(accountKey(subject));
    }
  }

  /** Throws 429 `rate_limit_exceeded` with `Retry-After` while the account or the address is locked. */
  async assertNotLocked(subject: LoginAttemptSubject): Promise<void> {
    const [accountLock, addressLock] = await Promise.all([
      this.lockRemainingMs('account', subject),
      this.lockRemainingMs('address', subject),
    ]);
    const remainingMs = Math.max(accountLock, addressLock);
    if (remainingMs <= 0) return;
    throw tooManyAttempts(remainingMs, 'Too many failed sign-in attempts.');
  }

  /**
   * A successful sign-in clears the account's failures and takes its own count back from the address, whose other
   * failures stay: one good account must not unlock guessing at others.
   */
  private async recordSuccess(subject: LoginAttemptSubject, counted: CountedAttempt): Promise<void> {
    const key = accountKey(subject);
    await Promise.all([
      this.failures.delete(key),
      this.locks.delete(key),
      counted.accountExists ? this.failures.reward(addressKey(subject), 1) : undefined,
      counted.addressLocked ? this.locks.delete(addressKey(subject)) : undefined,
    ]);
  }

  private async reserve(subject: LoginAttemptSubject): Promise<void> {
    try {
      await this.inFlight.consume(accountKey(subject), 1);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw tooManyAttempts(1_000, 'Another sign-in of this account is being checked.');
    }
  }

  private async takeBack(subject: LoginAttemptSubject, counted: CountedAttempt): Promise<void> {
    const address = addressKey(subject);
    await Promise.all([
      this.failures.reward(accountKey(subject), 1),
      counted.accountExists ? this.failures.reward(address, 1) : this.unknownFailures.reward(address, 1),
      // No lock was in force when the attempt began (it passed the check), so one it set goes with it.
      counted.accountLocked ? this.locks.delete(accountKey(subject)) : undefined,
      counted.addressLocked ? this.locks.delete(address) : undefined,
    ]);
  }

  private async unknownBudgetSpent(address: string): Promise<boolean> {
    const state = await this.unknownFailures.get(addressKey({ address }));
    return state !== null && state.consumedPoints >= this.policies.unknownAccounts.hashedFailuresPerAddress;
  }

  private async timed(check: () => Promise<PasswordCheck>): Promise<PasswordCheck> {
    const started = performance.now();
    const outcome = await check();
    // A moving average, so one slow check under load does not set the pace.
    this.checkMilliseconds = 0.8 * this.checkMilliseconds + 0.2 * (performance.now() - started);
    return outcome;
  }

  /** Counts a failure and locks past the free ones; true when it set a lock. */
  private async countFailure(scope: Scope, subject: LoginAttemptSubject): Promise<boolean> {
    const key = counterKey(scope, subject);
    const state = await this.failures.penalty(key, 1);
    const policy = this.policies[scope];
    const beyondFree = state.consumedPoints - policy.freeFailures;
    if (beyondFree < 0) return false;
    await this.locks.block(key, lockSeconds(beyondFree, policy.maxLockSeconds));
    return true;
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

function tooManyAttempts(remainingMs: number, reason: string): GatewayError {
  const retryAfterSeconds = Math.max(1, Math.ceil(remainingMs / 1000));
  return new GatewayError('rate_limit_exceeded', `${reason} Retry after ${retryAfterSeconds} s.`, {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

function counterKey(scope: Scope, subject: LoginAttemptSubject): string {
  return scope === 'account' ? accountKey(subject) : addressKey(subject);
}

function accountKey(subject: LoginAttemptSubject): string {
  return `account:${subject.emailHash}`;
}

function addressKey(subject: Pick<LoginAttemptSubject, 'address'>): string {
  return `address:${subject.address}`;
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

function createLimiter(
  redis: Redis | undefined,
  options: { keyPrefix: string; points: number; duration: number },
): RateLimiterAbstract {
  const memory = new RateLimiterMemory(options);
  // While Redis is unreachable, each node keeps counting on its own instead of letting every attempt through.
  return redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
}
