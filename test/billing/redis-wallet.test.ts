import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWalletDrift } from '../../src/billing/find-wallet-drift.js';
import { RedisWallet, type NodeWalletBooks, type WalletSettlement } from '../../src/billing/redis-wallet.js';
import { walletKey } from '../../src/billing/redis-wallet-keys.js';
import type { StoredBalance } from '../../src/storage/billing-records.js';
import { canStartPrivateRedis, startPrivateRedis, type PrivateRedis } from '../helpers/start-private-redis.js';

/** A database of stored balances and one node's settlement queue, as the wallet's books see them. */
function createBooks(stored: Map<string, StoredBalance>) {
  const unwritten = new Map<string, { charged: number; debt: number }>();
  const unwrittenByKey = new Map<string, number>();
  const keySpent = new Map<string, number>();
  let wallet: RedisWallet | undefined;
  const books: NodeWalletBooks = {
    unwritten: (userId) => unwritten.get(userId) ?? { charged: 0, debt: 0 },
    readStoredBalance: (userId) => Promise.resolve(stored.get(userId)),
    reconcileAll: async () => {
      await wallet!.reconcile([...stored.values()], Date.now());
    },
    exclusive: (work) => work(),
    keySpend: (apiKeyId) => ({ stored: keySpent.get(apiKeyId) ?? 0, unwritten: unwrittenByKey.get(apiKeyId) ?? 0 }),
  };
  return {
    books,
    unwritten,
    unwrittenByKey,
    keySpent,
    attach: (attached: RedisWallet) => (wallet = attached),
  };
}

/** A node's wallet with books; `settle` records what it charged in the books like the batch writer's queue. */
async function createNode(redis: Redis, stored: Map<string, StoredBalance>) {
  const books = createBooks(stored);
  const wallet = new RedisWallet(redis, `node_${randomUUID()}`, books.books);
  books.attach(wallet);
  await wallet.join();
  await wallet.beat();
  return {
    wallet,
    books,
    async settle(
      userId: string,
      held: number,
      cost: number,
      apiKeyId = uncapped.apiKeyId,
    ): Promise<WalletSettlement | undefined> {
      let outcome: WalletSettlement | undefined;
      await wallet.settle(userId, held, cost, apiKeyId, (settlement) => {
        outcome = settlement;
        if (!settlement) return;
        books.unwrittenByKey.set(apiKeyId, (books.unwrittenByKey.get(apiKeyId) ?? 0) + cost);
        const entry = books.unwritten.get(userId) ?? { charged: 0, debt: 0 };
        books.unwritten.set(userId, {
          charged: entry.charged + settlement.charged,
          debt: entry.debt + settlement.uncovered,
        });
      });
      return outcome;
    },
    /** The node's batch is written: the database has the new balance, the queue is empty. */
    async written(balance: StoredBalance, charged: number, debtAdded: number): Promise<void> {
      stored.set(balance.userId, balance);
      books.unwritten.delete(balance.userId);
      await wallet.apply(balance, { charged, debtAdded });
    },
  };
}

/** A key without a spending cap, shared by the tests that are about balances. */
const uncapped = { apiKeyId: 'key_uncapped', spendingCap: null };

function storedOf(userId: string, balance: number, debt = 0, sequence = 1): StoredBalance {
  return { userId, balance, debt, sequence };
}

describe.runIf(canStartPrivateRedis())('RedisWallet', () => {
  let server: PrivateRedis;
  let redis: Redis;

  beforeAll(async () => {
    server = await startPrivateRedis();
    redis = new Redis(server.url);
  });

  afterAll(async () => {
    await redis?.quit();
    await server?.remove();
  });

  it('holds against the stored balance minus the holds and unwritten charges of every node', async () => {
    const userId = `usr_${randomUUID()}`;
    const stored = new Map([[userId, storedOf(userId, 100)]]);
    const first = await createNode(redis, stored);
    const second = await createNode(redis, stored);
    expect(await first.wallet.hold(`usr_${randomUUID()}`, 10, uncapped)).toBe('missing');
    expect(await first.wallet.hold(userId, 60, uncapped)).toBe('held');
    expect(await second.wallet.hold(userId, 41, uncapped)).toBe('insufficient');
    expect(await second.wallet.hold(userId, 40, uncapped)).toBe('held');
    expect(await first.settle(userId, 60, 25)).toEqual({ charged: 25, uncovered: 0 }); // 35 released, 25 owed by the first node
    expect(await second.wallet.hold(userId, 36, uncapped)).toBe('insufficient');
    expect(await second.wallet.hold(userId, 35, uncapped)).toBe('held');
    // The first node writes its batch: the database now says 75 at sequence 2.
    await first.written(storedOf(userId, 75, 0, 2), 25, 0);
    // An older copy never overwrites a newer one.
    await second.wallet.apply(storedOf(userId, 100, 0, 1));
    expect(await second.settle(userId, 40, 80)).toEqual({ charged: 40, uncovered: 40 }); // never below zero: the rest is debt
    expect(await second.settle(userId, 35, 0)).toEqual({ charged: 0, uncovered: 0 });
  });

  it('turns a cost above the spendable balance into debt that refuses holds on every node until the stored debt is paid', async () => {
    const userId = `usr_${randomUUID()}`;
    const stored = new Map([[userId, storedOf(userId, 50)]]);
    const first = await createNode(redis, stored);
    const second = await createNode(redis, stored);
    expect(await first.wallet.hold(userId, 50, uncapped)).toBe('held');
    expect(await first.settle(userId, 50, 80)).toEqual({ charged: 50, uncovered: 30 });
    expect(await second.wallet.hold(userId, 1, uncapped)).toBe('debt');
    await first.written(storedOf(userId, 0, 30, 2), 50, 30);
    expect(await second.wallet.hold(userId, 1, uncapped)).toBe('debt');
    // A top-up of 100 paid the debt first: 70 left, nothing owed.
    await second.wallet.apply(storedOf(userId, 70, 0, 4));
    expect(await second.wallet.hold(userId, 71, uncapped)).toBe('insufficient');
    expect(await second.wallet.hold(userId, 70, uncapped)).toBe('held');
    await first.wallet.leave();
    await second.wallet.leave();
  });

  it('drops holds and unwritten charges of a node whose heartbeat stopped', async () => {
    const userId = `usr_${randomUUID()}`;
    const stored = new Map([[userId, storedOf(userId, 50)]]);
    const dead = new RedisWallet(redis, `node_${randomUUID()}`, createBooks(stored).books);
    const alive = await createNode(redis, stored);
    expect(await dead.hold(userId, 50, uncapped)).toBe('held');
    expect(await alive.wallet.hold(userId, 1, uncapped)).toBe('insufficient');
    expect(await driftOf(redis, stored, userId)).toEqual([]);
    expect((await findWalletDrift(redis, readFrom(stored))).deadNodeAmounts).toBeGreaterThanOrEqual(50);
    expect(await alive.wallet.removeDeadNodes()).toContain(userId);
    expect(await alive.wallet.hold(userId, 50, uncapped)).toBe('held');
    await alive.wallet.leave();
  });

  it('heals after Redis lost every key: the wallet is rebuilt from the database and every node’s books', async () => {
    const userId = `usr_${randomUUID()}`;
    const stored = new Map([[userId, storedOf(userId, 1_000)]]);
    const first = await createNode(redis, stored);
    const second = await createNode(redis, stored);
    expect(await first.wallet.hold(userId, 300, uncapped)).toBe('held');
    expect(await second.wallet.hold(userId, 200, uncapped)).toBe('held');
    expect(await second.settle(userId, 200, 100)).toEqual({ charged: 100, uncovered: 0 }); // unwritten on the second node
    await server.empty();
    // The first node finds a new epoch, rejoins and rebuilds from the database and its own books: 1,000 − its 300.
    // The second node's unwritten 100 is back as soon as it rejoins (its next call, or its reconnection).
    expect(await first.wallet.hold(userId, 701, uncapped)).toBe('insufficient');
    expect(await second.wallet.hold(userId, 601, uncapped)).toBe('insufficient');
    expect(await second.wallet.hold(userId, 600, uncapped)).toBe('held');
    // The hold made before the loss is released once, never below zero; nothing of the old wallet is left over.
    expect(await first.settle(userId, 300, 0)).toEqual({ charged: 0, uncovered: 0 });
    expect(await second.settle(userId, 600, 0)).toEqual({ charged: 0, uncovered: 0 });
    const fields = await redis.hgetall(walletKey(userId));
    expect(fields).toEqual({ durable: '1000', debt: '0', sequence: '1', [`pending:${second.wallet.nodeId}`]: '100' });
    expect(await driftOf(redis, stored, userId)).toEqual([]);
  });

  it('caps a key across nodes: holds and unwritten costs on every node count, written costs join its stored spend', async () => {
    const userId = `usr_${randomUUID()}`;
    const stored = new Map([[userId, storedOf(userId, 10_000)]]);
    const first = await createNode(redis, stored);
    const second = await createNode(redis, stored);
    const key = { apiKeyId: `key_${randomUUID()}`, spendingCap: 100 };
    first.books.keySpent.set(key.apiKeyId, 10);
    second.books.keySpent.set(key.apiKeyId, 10);
    expect(await first.wallet.hold(userId, 60, key)).toBe('held'); // 10 stored + 60
    expect(await second.wallet.hold(userId, 31, key)).toBe('cap');
    expect(await second.wallet.hold(userId, 30, key)).toBe('held');
    expect(await first.settle(userId, 60, 25, key.apiKeyId)).toEqual({ charged: 25, uncovered: 0 });
    expect(await first.wallet.hold(userId, 36, key)).toBe('cap'); // 10 + 25 unwritten + 30 held
    // The first node's batch is written: 25 moves from its unwritten spend to the stored spend.
    await first.wallet.applyKeySpend(key.apiKeyId, 25);
    first.books.unwrittenByKey.delete(key.apiKeyId);
    expect(await first.wallet.hold(userId, 36, key)).toBe('cap');
    expect(await first.wallet.hold(userId, 35, key)).toBe('held');
    // A reload reads the stored spend (10 + 25) and corrects nothing: Redis agreed.
    expect(await first.wallet.reconcileKeys([{ apiKeyId: key.apiKeyId, spent: 35 }])).toBe(0);
    expect(await second.wallet.hold(userId, 1, key)).toBe('cap');
  });

  it('rewrites fields that commands ran late or never wrote (a freeze, a restart with old data) from the books', async () => {
    const userId = `usr_${randomUUID()}`;
    const stored = new Map([[userId, storedOf(userId, 1_000)]]);
    const node = await createNode(redis, stored);
    expect(await node.wallet.hold(userId, 100, uncapped)).toBe('held');
    // A hold that timed out on the node but ran when Redis thawed, and a written batch whose copy never reached Redis.
    await redis.hincrby(walletKey(userId), `held:${node.wallet.nodeId}`, 250);
    await redis.hincrby(walletKey(userId), `pending:${node.wallet.nodeId}`, 40);
    stored.set(userId, storedOf(userId, 960, 0, 2));
    expect(await node.wallet.hold(userId, 611, uncapped)).toBe('insufficient'); // 1,000 − 350 − 40: spendable was too low
    const drift = await node.wallet.reconcile([...stored.values()], Date.now());
    expect(drift).toMatchObject({ nodeFields: 290, durable: 0, recreated: 0 });
    expect(await node.wallet.hold(userId, 861, uncapped)).toBe('insufficient'); // 960 − 100
    expect(await node.wallet.hold(userId, 860, uncapped)).toBe('held');
    await redis.hset(walletKey(userId), 'durable', '5'); // same sequence, other value: drift against the database
    expect(await driftOf(redis, stored, userId)).toEqual([
      expect.objectContaining({ userId, problem: 'durable', redis: 5, expected: 960 }),
    ]);
    expect((await node.wallet.reconcile([...stored.values()], Date.now())).durable).toBe(955);
    expect(await driftOf(redis, stored, userId)).toEqual([]);
  });
});

function readFrom(stored: Map<string, StoredBalance>) {
  return (userIds: string[]) =>
    Promise.resolve(userIds.flatMap((userId) => (stored.has(userId) ? [stored.get(userId)!] : [])));
}

/** The drift `findWalletDrift` finds in the user's wallet (other tests' wallets share the server). */
async function driftOf(redis: Redis, stored: Map<string, StoredBalance>, userId: string) {
  return (await findWalletDrift(redis, readFrom(stored))).drift.filter((entry) => entry.userId === userId);
}
