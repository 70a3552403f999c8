import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { LoginAttemptLimiter, type LoginAttemptSubject } from './login-attempt-limiter.js';

const policies = {
  account: { freeFailures: 3, maxLockSeconds: 8 },
  address: { freeFailures: 10, maxLockSeconds: 60 },
  failureMemorySeconds: 3_600,
};

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

describe('LoginAttemptLimiter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('locks an account after its free failures, twice as long after each further failure, up to the ceiling', async () => {
    const limiter = new LoginAttemptLimiter({ policies });
    const subject = { emailHash: 'account-a', address: '192.0.2.1' };
    for (let failure = 1; failure < 3; failure++) {
      await limiter.recordFailure(subject);
      expect(await lockSecondsOf(limiter, subject)).toBeUndefined();
    }
    const locks: Array<number | undefined> = [];
    for (let failure = 3; failure <= 7; failure++) {
      await limiter.recordFailure(subject);
      const seconds = await lockSecondsOf(limiter, subject);
      locks.push(seconds);
      vi.advanceTimersByTime((seconds ?? 0) * 1000);
      expect(await lockSecondsOf(limiter, subject)).toBeUndefined();
    }
    expect(locks).toEqual([1, 2, 4, 8, 8]);
  });

  it('locks the same way for an email without an account and does not involve other accounts', async () => {
    const limiter = new LoginAttemptLimiter({ policies });
    const subject = { emailHash: 'no-such-account', address: '192.0.2.2' };
    for (let failure = 0; failure < 3; failure++) await limiter.recordFailure(subject);
    expect(await lockSecondsOf(limiter, subject)).toBe(1);
    expect(await lockSecondsOf(limiter, { emailHash: 'another-account', address: '192.0.2.3' })).toBeUndefined();
  });

  it('clears an account on success, but not the address, so one good account does not reset guessing at others', async () => {
    const limiter = new LoginAttemptLimiter({ policies });
    for (let index = 0; index < 9; index++)
      await limiter.recordFailure({ emailHash: `victim-${index}`, address: '198.51.100.7' });
    const own = { emailHash: 'attacker-own', address: '198.51.100.7' };
    await limiter.recordFailure(own);
    await limiter.recordFailure(own);
    await limiter.recordSuccess(own);
    await limiter.recordFailure(own);
    // The account starts over (1 failure); the address has 12 failures, past its 10 free ones.
    expect(await lockSecondsOf(limiter, { emailHash: 'fresh', address: '198.51.100.7' })).toBe(4);
    expect(await lockSecondsOf(limiter, { emailHash: 'attacker-own', address: '203.0.113.9' })).toBeUndefined();
  });
});
