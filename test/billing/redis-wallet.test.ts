import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisWallet } from '../../src/billing/redis-wallet.js';
import { isContinuousIntegration } from '../helpers/postgres-test-database.js';

const redisUrl = process.env.GATEWAY_TEST_REDIS_URL;
if (!redisUrl && isContinuousIntegration()) throw new Error('GATEWAY_TEST_REDIS_URL must be set in CI (see .ci/start-redis.sh)');

describe.runIf(Boolean(redisUrl))('RedisWallet', () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(redisUrl!);
  });

  afterAll(async () => {
    await redis.quit();
  });

  it('holds against the stored balance minus the holds and unwritten charges of every node', async () => {
    const userId = `usr_${randomUUID()}`;
    const first = new RedisWallet(redis, `node_${randomUUID()}`);
    const second = new RedisWallet(redis, `node_${randomUUID()}`);
    expect(await first.hold(userId, 10)).toBe('missing');
    await first.apply({ userId, balance: 100, sequence: 1 });
    expect(await first.hold(userId, 60)).toBe('held');
    expect(await second.hold(userId, 41)).toBe('insufficient');
    expect(await second.hold(userId, 40)).toBe('held');
    expect(await first.settle(userId, 60, 25)).toBe(25); // 35 released, 25 owed by the first node
    expect(await second.hold(userId, 36)).toBe('insufficient');
    expect(await second.hold(userId, 35)).toBe('held');
    // The first node writes its batch: the database now says 75 at sequence 2.
    await first.apply({ userId, balance: 75, sequence: 2 }, 25);
    // An older copy never overwrites a newer one.
    await second.apply({ userId, balance: 100, sequence: 1 });
    expect(await second.settle(userId, 40, 80)).toBe(40); // capped at what is spendable: never below zero
    expect(await second.settle(userId, 35, 0)).toBe(0);
  });

  it('drops holds and unwritten charges of a node whose heartbeat stopped', async () => {
    const userId = `usr_${randomUUID()}`;
    const dead = new RedisWallet(redis, `node_${randomUUID()}`);
    const alive = new RedisWallet(redis, `node_${randomUUID()}`);
    await alive.beat();
    await alive.apply({ userId, balance: 50, sequence: 1 });
    expect(await dead.hold(userId, 50)).toBe('held');
    expect(await alive.hold(userId, 1)).toBe('insufficient');
    expect(await alive.removeDeadNodes()).toContain(userId);
    expect(await alive.hold(userId, 50)).toBe('held');
    await alive.leave();
  });
});
