import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalRequestRateLimiter } from '../../src/billing/local-request-rate-limiter.js';
import type { LimitSubject } from '../../src/billing/request-rate-limiter.js';
import { SharedRequestRateLimiter } from '../../src/billing/shared-request-rate-limiter.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { isContinuousIntegration } from '../helpers/postgres-test-database.js';

const redisUrl = process.env.GATEWAY_TEST_REDIS_URL;
if (!redisUrl && isContinuousIntegration())
  throw new Error('GATEWAY_TEST_REDIS_URL must be set in CI (see .ci/start-redis.sh)');

let redis: Redis | undefined;

beforeAll(() => {
  if (redisUrl) redis = new Redis(redisUrl);
});

afterAll(async () => {
  await redis?.quit();
});

function connectedRedis(): Redis {
  if (!redis) throw new Error('GATEWAY_TEST_REDIS_URL is not set');
  return redis;
}

function subject(limits: Partial<LimitSubject['limits']>): LimitSubject {
  return {
    scope: 'key',
    id: randomUUID(),
    limits: { requestsPerMinute: 0, tokensPerMinute: 0, maxConcurrentRequests: 0, ...limits },
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

const backends = [
  { name: 'memory', run: true, create: () => new LocalRequestRateLimiter() },
  { name: 'Redis', run: Boolean(redisUrl), create: () => new SharedRequestRateLimiter(connectedRedis()) },
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
      admission.release(90);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const error = await rejectionOf(limiter.admit([key], 20));
      expect(error.headers['x-ratelimit-limit-tokens']).toBe('100');
    });

    it('gives back the part of the estimate a request did not use', async () => {
      const limiter = backend.create();
      const key = subject({ tokensPerMinute: 100 });
      (await limiter.admit([key], 60)).release(10);
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
      held.release(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      (await limiter.admit([key, user], 1)).release(0);
    });

    it('takes nothing from any counter when one of them refuses', async () => {
      const limiter = backend.create();
      const key = subject({ requestsPerMinute: 5 });
      const user: LimitSubject = { ...subject({ tokensPerMinute: 10 }), scope: 'user' };
      await limiter.admit([key, user], 8);
      expect((await rejectionOf(limiter.admit([key, user], 5))).headers['x-ratelimit-limit-tokens']).toBe('10');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const admission = await limiter.admit([key], 1);
      expect(admission.headers['x-ratelimit-remaining-requests']).toBe('3');
    });

    it('gives a concurrency slot back once, however often an admission is released', async () => {
      const limiter = backend.create();
      const key = subject({ maxConcurrentRequests: 1 });
      const first = await limiter.admit([key], 1);
      first.release(0);
      first.release(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await limiter.admit([key], 1);
      expect((await rejectionOf(limiter.admit([key], 1))).message).toMatch(/at most 1 concurrent requests at once/);
    });

    it('refuses before the body only a counter that is already used up', async () => {
      const limiter = backend.create();
      const key = subject({ requestsPerMinute: 1, tokensPerMinute: 100 });
      await limiter.refuseIfExhausted([key]);
      await limiter.admit([key], 99);
      const error = await rejectionOf(limiter.refuseIfExhausted([key]));
      expect(error.headers['x-ratelimit-limit-requests']).toBe('1');
    });
  });
}

describe('request rate limits of a single node', () => {
  function limiterWithClock(): { limiter: LocalRequestRateLimiter; setTime: (milliseconds: number) => void } {
    let now = 1_000_000;
    return {
      limiter: new LocalRequestRateLimiter(() => now),
      setTime: (milliseconds) => (now = 1_000_000 + milliseconds),
    };
  }

  it('counts requests in a window that ends a minute after its first request', async () => {
    const { limiter, setTime } = limiterWithClock();
    const key = subject({ requestsPerMinute: 1 });
    await limiter.admit([key], 1);
    setTime(59_500);
    const error = await rejectionOf(limiter.admit([key], 1));
    expect(error.headers['retry-after']).toBe('1');
    setTime(60_000);
    const admission = await limiter.admit([key], 1);
    expect(admission.headers).toMatchObject({
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '60s',
    });
  });

  it('counts tokens beyond the estimate in the window where the request ended', async () => {
    const { limiter, setTime } = limiterWithClock();
    const key = subject({ tokensPerMinute: 100 });
    const admission = await limiter.admit([key], 10);
    setTime(61_000);
    admission.release(50);
    expect((await limiter.admit([key], 60)).headers['x-ratelimit-remaining-tokens']).toBe('0');
  });

  it('does not give back an estimate to a window it was not taken from', async () => {
    const { limiter, setTime } = limiterWithClock();
    const key = subject({ tokensPerMinute: 100 });
    const admission = await limiter.admit([key], 90);
    setTime(61_000);
    await limiter.admit([key], 30);
    admission.release(10);
    expect((await limiter.admit([key], 1)).headers['x-ratelimit-remaining-tokens']).toBe('69');
  });

  it('forgets, in its minutely sweep, only counters whose window is over', async () => {
    const { limiter, setTime } = limiterWithClock();
    const running = subject({ requestsPerMinute: 1 });
    const ended = subject({ requestsPerMinute: 1 });
    await limiter.admit([ended], 1);
    setTime(59_000);
    await limiter.admit([running], 1);
    // The first admission a minute after the limiter started sweeps: `ended`'s window is over, `running`'s is not.
    setTime(60_000);
    await limiter.admit([subject({ requestsPerMinute: 1 })], 1);
    expect((await rejectionOf(limiter.admit([running], 1))).headers['retry-after']).toBe('59');
    await limiter.admit([ended], 1);
  });

  it('keeps a concurrency slot for as long as its request runs', async () => {
    const { limiter, setTime } = limiterWithClock();
    const key = subject({ maxConcurrentRequests: 1 });
    const admission = await limiter.admit([key], 1);
    setTime(3_600_000);
    await rejectionOf(limiter.admit([key], 1));
    admission.release(0);
    await limiter.admit([key], 1);
  });
});
