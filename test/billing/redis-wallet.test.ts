import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisWallet } from '../../src/billing/redis-wallet.js';
import { isContinuousIntegration } from '../helpers/postgres-test-database.js';

const redisUrl = process.env.GATEWAY_TEST_REDIS_URL;
if (!redisUrl && isContinuousIntegration())
  throw new Error('GATEWAY_TEST_REDIS_URL must be set in CI (see .ci/start-redis.sh)');

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
    await first.apply({ userId, balance: 100, debt: 0, sequence: 1 });
    expect(await first.hold(userId, 60)).toBe('held');
    expect(await second.hold(userId, 41)).toBe('insufficient');
    expect(await second.hold(userId, 40)).toBe('held');
    expect(await first.settle(userId, 60, 25)).toEqual({ charged: 25, uncovered: 0 }); // 35 released, 25 owed by the first node
    expect(await second.hold(userId, 36)).toBe('insufficient');
    expect(await second.hold(userId, 35)).toBe('held');
    // The first node writes its batch: the database now says 75 at sequence 2.
    await first.apply({ userId, balance: 75, debt: 0, sequence: 2 }, { charged: 25, debtAdded: 0 });
    // An older copy never overwrites a newer one.
    await second.apply({ userId, balance: 100, debt: 0, sequence: 1 });
    expect(await second.settle(userId, 40, 80)).toEqual({ charged: 40, uncovered: 40 }); // never below zero: the rest is debt
    expect(await second.settle(userId, 35, 0)).toEqual({ charged: 0, uncovered: 0 });
  });

  it('turns a cost above the spendable balance into debt that refuses holds on every node until the stored debt is paid', async () => {
    const userId = `usr_${randomUUID()}`;
    const first = new RedisWallet(redis, `node_${randomUUID()}`);
    const second = new RedisWallet(redis, `node_${randomUUID()}`);
    await first.apply({ userId, balance: 50, debt: 0, sequence: 1 });
    expect(await first.hold(userId, 50)).toBe('held');
    expect(await first.settle(userId, 50, 80)).toEqual({ charged: 50, uncovered: 30 });
    expect(await second.hold(userId, 1)).toBe('debt');
    // The first node writes its batch: balance 0 and debt 30 are now stored.
    await first.apply({ userId, balance: 0, debt: 30, sequence: 2 }, { charged: 50, debtAdded: 30 });
    expect(await second.hold(userId, 1)).toBe('debt');
    // A top-up of 100 paid the debt first: 70 left, nothing owed.
    await second.apply({ userId, balance: 70, debt: 0, sequence: 4 });
    expect(await second.hold(userId, 71)).toBe('insufficient');
    expect(await second.hold(userId, 70)).toBe('held');
    await first.leave();
    await second.leave();
  });

  it('drops holds and unwritten charges of a node whose heartbeat stopped', async () => {
    const userId = `usr_${randomUUID()}`;
    const dead = new RedisWallet(redis, `node_${randomUUID()}`);
    const alive = new RedisWallet(redis, `node_${randomUUID()}`);
    await alive.beat();
    await alive.apply({ userId, balance: 50, debt: 0, sequence: 1 });
    expect(await dead.hold(userId, 50)).toBe('held');
    expect(await alive.hold(userId, 1)).toBe('insufficient');
    expect(await alive.removeDeadNodes()).toContain(userId);
    expect(await alive.hold(userId, 50)).toBe('held');
    await alive.leave();
  });
});
