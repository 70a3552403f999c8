import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestRateLimiter, type LimitSubject } from '../../src/billing/request-rate-limiter.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { isContinuousIntegration } from '../helpers/postgres-test-database.js';

const redisUrl = process.env.GATEWAY_TEST_REDIS_URL;
if (!redisUrl && isContinuousIntegration()) throw new Error('GATEWAY_TEST_REDIS_URL must be set in CI (see .ci/start-redis.sh)');

let redis: Redis | undefined;

beforeAll(() => {
  if (redisUrl) redis = new Redis(redisUrl);
});

afterAll(async () => {
  await redis?.quit();
});

function subject(limits: Partial<LimitSubject['limits']>): LimitSubject {
  return { scope: 'key', id: randomUUID(), limits: { requestsPerMinute: 0, tokensPerMinute: 0, maxConcurrentRequests: 0, ...limits } };
}

async function rejectionOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

const backends = [
  { name: 'memory', run: true, create: () => new RequestRateLimiter(undefined) },
  { name: 'Redis', run: Boolean(redisUrl), create: () => new RequestRateLimiter(redis) },
];

for (const backend of backends) {
  describe.runIf(backend.run)(`request rate limits in ${backend.name}`, () => {
    it('admits requests per minute up to the limit, then answers 429 with retry-after and x-ratelimit headers', async () => {
      const limiter = backend.create();
      const key = subject({ requestsPerMinute: 2 });
      const first = await limiter.admit([key], 1);
      expect(first.headers).toMatchObject({ 'x-ratelimit-limit-requests': '2', 'x-ratelimit-remaining-requests': '1' });
      expect(first.headers['x-ratelimit-reset-requests']).toMatch(/^\d+s$/);
      await limiter.admit([key], 1);
      const error = await rejectionOf(limiter.admit([key], 1));
      expect(error.code).toBe('rate_limit_exceeded');
      expect(error.status).toBe(429);
      expect(error.message).toMatch(/slow down/);
      expect(Number(error.headers['retry-after'])).toBeGreaterThan(0);
      expect(error.headers['x-ratelimit-remaining-requests']).toBe('0');
    });

    it('counts tokens per minute, including tokens generated beyond the estimate', async () => {
      const limiter = backend.create();
      const key = subject({ tokensPerMinute: 100 });
      const admission = await limiter.admit([key], 60);
      expect(admission.headers['x-ratelimit-remaining-tokens']).toBe('40');
      limiter.release(admission, 90);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const error = await rejectionOf(limiter.admit([key], 20));
      expect(error.headers['x-ratelimit-limit-tokens']).toBe('100');
    });

    it('gives back the part of the estimate a request did not use', async () => {
      const limiter = backend.create();
      const key = subject({ tokensPerMinute: 100 });
      limiter.release(await limiter.admit([key], 60), 10);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const admission = await limiter.admit([key], 80);
      expect(admission.headers['x-ratelimit-remaining-tokens']).toBe('10');
    });

    it('limits concurrent requests and frees the slot on release', async () => {
      const limiter = backend.create();
      const key = subject({ maxConcurrentRequests: 1 });
      const user: LimitSubject = { ...subject({ maxConcurrentRequests: 5 }), scope: 'user' };
      const held = await limiter.admit([key, user], 1);
      expect((await rejectionOf(limiter.admit([key, user], 1))).message).toMatch(/at once/);
      limiter.release(held, 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      limiter.release(await limiter.admit([key, user], 1), 0);
    });
  });
}
