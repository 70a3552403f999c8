import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { LoginAttemptLimiter, type LoginAttemptSubject } from './login-attempt-limiter.js';
import type { PasswordCheck } from './password-hash.js';

const policies = {
  account: { freeFailures: 3, maxLockSeconds: 8 },
  address: { freeFailures: 10, maxLockSeconds: 60 },
  unknownAccounts: { hashedFailuresPerAddress: 4, windowSeconds: 600 },
  failureMemorySeconds: 3_600,
};

const wrong: PasswordCheck = { valid: false, needsRehash: false };
const right: PasswordCheck = { valid: true, needsRehash: false };

async function lockSecondsOf(limiter: LoginAttemptLimiter, subject: LoginAttemptSubject): Promise<number | undefined> {
  try {
    await limiter.assertNotLocked(subject);
    return undefined;
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    expect(error.status).toBe(429);
    expect(error.code).toBe('rate_limit_exceeded');
    return Number(error.headers['retry-after']);
  }
}

/** One attempt; its outcome, or `429` when the limiter refused it before the check. */
async function attempt(
  limiter: LoginAttemptLimiter,
  subject: LoginAttemptSubject,
  outcome: PasswordCheck,
  options: { accountExists?: boolean; check?: () => Promise<PasswordCheck> } = {},
): Promise<PasswordCheck | 429> {
  try {
    return await limiter.checkPassword(subject, options.accountExists ?? true, options.check ?? (async () => outcome));
  } catch (error) {
    if (error instanceof GatewayError && error.status === 429) return 429;
    throw error;
  }
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('LoginAttemptLimiter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('locks an account after its free failures, twice as long after each further failure, up to the ceiling', async () => {
    vi.useFakeTimers();
    const limiter = new LoginAttemptLimiter({ policies });
    const subject = { emailHash: 'account-a', address: '192.0.2.1' };
    for (let failure = 1; failure < 3; failure++) {
      expect(await attempt(limiter, subject, wrong)).toEqual(wrong);
      expect(await lockSecondsOf(limiter, subject)).toBeUndefined();
    }
    const locks: Array<number | undefined> = [];
    for (let failure = 3; failure <= 7; failure++) {
      expect(await attempt(limiter, subject, wrong)).toEqual(wrong);
      const seconds = await lockSecondsOf(limiter, subject);
      locks.push(seconds);
      expect(await attempt(limiter, subject, right)).toBe(429);
      vi.advanceTimersByTime((seconds ?? 0) * 1000);
      expect(await lockSecondsOf(limiter, subject)).toBeUndefined();
    }
    expect(locks).toEqual([1, 2, 4, 8, 8]);
  });

  it('checks one password of an account at a time: of 25 parallel guesses one is checked, the others get 429 at once', async () => {
    const limiter = new LoginAttemptLimiter({
      policies: { ...policies, account: { freeFailures: 5, maxLockSeconds: 900 } },
    });
    const subject = { emailHash: 'parallel', address: '192.0.2.9' };
    let checks = 0;
    const slowWrong = async (): Promise<PasswordCheck> => {
      checks += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return wrong;
    };
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, () => attempt(limiter, subject, wrong, { check: slowWrong })),
    );
    expect(checks).toBeLessThanOrEqual(5);
    expect(outcomes.filter((outcome) => outcome === 429)).toHaveLength(25 - checks);
    // The slot is free again once the check ended.
    expect(await attempt(limiter, subject, right)).toEqual(right);
  });

  it('counts the attempt before the password is checked, so a lock holds while the check still runs', async () => {
    const limiter = new LoginAttemptLimiter({
      policies: { ...policies, account: { freeFailures: 1, maxLockSeconds: 8 } },
    });
    const subject = { emailHash: 'counted-first', address: '192.0.2.10' };
    const hashing = deferred<PasswordCheck>();
    let started!: () => void;
    const checkStarted = new Promise<void>((resolve) => (started = resolve));
    const running = attempt(limiter, subject, wrong, {
      check: () => {
        started();
        return hashing.promise;
      },
    });
    await checkStarted;
    expect(await lockSecondsOf(limiter, subject)).toBe(1);
    hashing.resolve(wrong);
    expect(await running).toEqual(wrong);
  });

  it('takes an attempt back when the check could not run (the hasher was busy), and frees the account', async () => {
    const limiter = new LoginAttemptLimiter({
      policies: { ...policies, account: { freeFailures: 1, maxLockSeconds: 8 } },
    });
    const subject = { emailHash: 'busy', address: '192.0.2.11' };
    const busy = new Error('busy');
    await expect(limiter.checkPassword(subject, true, () => Promise.reject(busy))).rejects.toBe(busy);
    expect(await lockSecondsOf(limiter, subject)).toBeUndefined();
    expect(await attempt(limiter, subject, right)).toEqual(right);
  });

  it('clears an account on success, but not the address, so one good account does not reset guessing at others', async () => {
    const limiter = new LoginAttemptLimiter({
      policies: { ...policies, address: { freeFailures: 20, maxLockSeconds: 60 } },
    });
    const address = '198.51.100.7';
    for (let index = 0; index < 9; index++) await attempt(limiter, { emailHash: `victim-${index}`, address }, wrong);
    const own = { emailHash: 'attacker-own', address };
    for (const outcome of [wrong, wrong, right, wrong, wrong]) await attempt(limiter, own, outcome);
    // The account started over at the success (2 failures since, under its 3 free ones).
    expect(await lockSecondsOf(limiter, { ...own, address: '203.0.113.9' })).toBeUndefined();
    // The address kept all 13 failures (the success took back only its own count): the 7th more reaches its 20.
    for (let index = 0; index < 6; index++) await attempt(limiter, { emailHash: `fresh-${index}`, address }, wrong);
    expect(await lockSecondsOf(limiter, { emailHash: 'fresh', address })).toBeUndefined();
    await attempt(limiter, { emailHash: 'fresh-last', address }, wrong);
    expect(await lockSecondsOf(limiter, { emailHash: 'fresh', address })).toBe(1);
  });

  it('never locks an address for failures against emails without an account, and stops hashing them past the budget', async () => {
    const limiter = new LoginAttemptLimiter({ policies });
    const address = '203.0.113.50';
    let checks = 0;
    const countedWrong = async (): Promise<PasswordCheck> => {
      checks += 1;
      return wrong;
    };
    for (let index = 0; index < 30; index++) {
      const outcome = await attempt(limiter, { emailHash: `nobody-${index}`, address }, wrong, {
        accountExists: false,
        check: countedWrong,
      });
      expect(outcome).toEqual(wrong);
    }
    expect(checks).toBe(policies.unknownAccounts.hashedFailuresPerAddress);
    expect(await lockSecondsOf(limiter, { emailHash: 'real', address })).toBeUndefined();
    expect(await attempt(limiter, { emailHash: 'real', address }, right)).toEqual(right);
    // Each unknown email still has its own lock, exactly like an account's.
    for (let index = 0; index < 3; index++)
      await attempt(limiter, { emailHash: 'nobody-repeated', address }, wrong, { accountExists: false });
    expect(await lockSecondsOf(limiter, { emailHash: 'nobody-repeated', address: '192.0.2.99' })).toBe(1);
  });
});
