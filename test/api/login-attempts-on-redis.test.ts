// Several nodes share sign-in locks through Redis: a lock earned on one node holds on the others.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginAttemptLimiter } from '../../src/accounts/login-attempt-limiter.js';
import { isContinuousIntegration } from '../helpers/postgres-test-database.js';

const redisUrl = process.env.GATEWAY_TEST_REDIS_URL;
if (!redisUrl && isContinuousIntegration())
  throw new Error('GATEWAY_TEST_REDIS_URL must be set in CI (see .ci/start-redis.sh)');

describe.runIf(Boolean(redisUrl))('LoginAttemptLimiter on Redis', () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(redisUrl!);
  });

  afterAll(async () => {
    await redis.quit();
  });

  const wrong = async () => ({ valid: false, needsRehash: false });
  const right = async () => ({ valid: true, needsRehash: false });

  it('locks an account on every node once one node has seen its free failures', async () => {
    const policies = {
      account: { freeFailures: 2, maxLockSeconds: 60 },
      address: { freeFailures: 100, maxLockSeconds: 60 },
      unknownAccounts: { hashedFailuresPerAddress: 100, windowSeconds: 60 },
      failureMemorySeconds: 60,
    };
    const firstNode = new LoginAttemptLimiter({ redis, policies });
    const secondNode = new LoginAttemptLimiter({ redis, policies });
    const subject = { emailHash: `account-${randomUUID()}`, address: `address-${randomUUID()}` };

    await firstNode.checkPassword(subject, true, wrong);
    await secondNode.assertNotLocked(subject);
    await secondNode.checkPassword(subject, true, wrong);
    await expect(firstNode.assertNotLocked(subject)).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      headers: { 'retry-after': '1' },
    });
    await expect(secondNode.checkPassword(subject, true, right)).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
  });

  it('checks one password of an account at a time across nodes', async () => {
    const firstNode = new LoginAttemptLimiter({ redis });
    const secondNode = new LoginAttemptLimiter({ redis });
    const subject = { emailHash: `account-${randomUUID()}`, address: `address-${randomUUID()}` };
    let started = false;
    let finishCheck: (outcome: { valid: boolean; needsRehash: boolean }) => void = () => undefined;
    const running = firstNode.checkPassword(subject, true, () => {
      started = true;
      return new Promise((resolve) => (finishCheck = resolve));
    });
    await expect.poll(() => started).toBe(true);
    await expect(secondNode.checkPassword(subject, true, right)).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
    finishCheck({ valid: true, needsRehash: false });
    await expect(running).resolves.toEqual({ valid: true, needsRehash: false });
    await expect(secondNode.checkPassword(subject, true, right)).resolves.toEqual({ valid: true, needsRehash: false });
  });
});
