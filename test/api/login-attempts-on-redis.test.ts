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

  it('locks an account on every node once one node has seen its free failures', async () => {
    const policies = {
      account: { freeFailures: 2, maxLockSeconds: 60 },
      address: { freeFailures: 100, maxLockSeconds: 60 },
      failureMemorySeconds: 60,
    };
    const firstNode = new LoginAttemptLimiter({ redis, policies });
    const secondNode = new LoginAttemptLimiter({ redis, policies });
    const subject = { emailHash: `account-${randomUUID()}`, address: `address-${randomUUID()}` };

    await firstNode.recordFailure(subject);
    await secondNode.assertNotLocked(subject);
    await secondNode.recordFailure(subject);
    await expect(firstNode.assertNotLocked(subject)).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      headers: { 'retry-after': '1' },
    });
    await expect(secondNode.assertNotLocked(subject)).rejects.toMatchObject({ code: 'rate_limit_exceeded' });

    await firstNode.recordSuccess(subject);
    await secondNode.assertNotLocked(subject);
  });
});
