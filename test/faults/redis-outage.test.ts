// Redis stopped, frozen (SIGSTOP) and emptied (FLUSHALL) under load on two nodes sharing it and one PostgreSQL, both
// servers of the test's own: no node exits; every request is answered within about a second (served, or 503 with
// Retry-After; never held for the freeze); /readyz says 503 while Redis is down; everything recovers by itself; and
// every acknowledged request has its usage row and ledger entry, with the balances verifying.
import { Redis } from 'ioredis';
import pg from 'pg';
import { findWalletDrift } from '../../src/billing/find-wallet-drift.js';
import { walletKey } from '../../src/billing/redis-wallet-keys.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import {
  canStartPrivatePostgres,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../helpers/start-private-postgres.js';
import { canStartPrivateRedis, startPrivateRedis, type PrivateRedis } from '../helpers/start-private-redis.js';
import { askUntil, runLoad, send, type LoadAnswer, type LoadRequest, type RunningLoad } from './run-load.js';

const model = 'redis-outage-model';
/** Every answer must come well within this: a Redis command times out after 500 ms, and a request makes a few. */
const answerBoundMs = 2_500;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let postgres: PrivatePostgres;
let redis: PrivateRedis;
let nodes: BillingTestGateway[] = [];
let user: UserRecord;
let secret: string;

describe.runIf(canStartPrivatePostgres() && canStartPrivateRedis())('a Redis outage under load on two nodes', () => {
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
    const billing = { redisUrl: redis.url, reloadIntervalMs: 1_000 };
    const first = await startBillingTestGateway({
      models: [model],
      prices: [createUnitPrice(model)],
      billing,
      databaseUrl: postgres.url,
      config: { refreshIntervalMs: 200 },
    });
    const second = await startBillingTestGateway({
      models: [model],
      billing,
      databaseUrl: postgres.url,
      config: { refreshIntervalMs: 200 },
    });
    nodes = [first, second];
    user = await first.createUser();
    await first.topUp(user, 100_000_000);
    secret = (await first.createKey(user)).secret;
    for (const node of nodes) {
      await node.running.routing.refresh();
      await node.running.billing.refresh(true);
    }
  }, 60_000);

  afterAll(async () => {
    for (const node of nodes) await node.close();
    await redis?.remove();
    await postgres?.remove();
  });

  const chat = (client: number): LoadRequest => ({
    url: `${nodes[client % nodes.length]!.url}/v1/chat/completions`,
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }], max_tokens: 5 }),
  });
  const readiness = async (node: BillingTestGateway) => {
    const response = await fetch(`${node.url}/readyz`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const acknowledged: LoadAnswer[] = [];
  const everyNodeServes = async () => {
    const answers = await Promise.all(nodes.map((_, client) => send(chat(client))));
    acknowledged.push(...answers.filter((answer) => answer.status === 200));
    return answers.every((answer) => answer.status === 200);
  };

  async function countRows(): Promise<{ acknowledgedLogs: number; settlementEntries: number }> {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const logs = await client.query<{ count: string }>(
        'select count(*) as count from usage_logs where user_id = $1 and status between 200 and 299',
        [user.id],
      );
      const ledger = await client.query<{ count: string }>(
        "select count(*) as count from ledger_entries where user_id = $1 and kind = 'settlement'",
        [user.id],
      );
      return { acknowledgedLogs: Number(logs.rows[0]!.count), settlementEntries: Number(ledger.rows[0]!.count) };
    } finally {
      await client.end();
    }
  }

  function expectAnsweredInTime(answers: LoadAnswer[]): void {
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status === 0)).toEqual([]);
    expect(answers.filter((answer) => answer.elapsedMs > answerBoundMs)).toEqual([]);
    expect(
      answers.filter(
        (answer) =>
          answer.status !== 200 &&
          !(answer.status === 503 && answer.errorCode === 'service_unavailable' && answer.retryAfter !== undefined),
      ),
    ).toEqual([]);
  }

  let load: RunningLoad;

  async function phase(fault: () => Promise<void>): Promise<LoadAnswer[]> {
    load = runLoad({ clients: 4, next: chat });
    await pause(300);
    await fault();
    const answers = await load.stop();
    acknowledged.push(...answers.filter((answer) => answer.status === 200));
    return answers;
  }

  it('answers within a second while Redis is frozen, and serves again once it runs', async () => {
    expect(await everyNodeServes()).toBe(true);
    const answers = await phase(async () => {
      redis.freeze();
      await pause(3_000);
      redis.thaw();
      expect(await askUntil(everyNodeServes, (served) => served, 10_000)).toBe(true);
    });
    expectAnsweredInTime(answers);
    // The freeze was seen: some requests were refused rather than held for it.
    expect(answers.some((answer) => answer.status === 503)).toBe(true);
  }, 30_000);

  it('answers at once while Redis is stopped, says so on /readyz, and recovers when it is back', async () => {
    const answers = await phase(async () => {
      await redis.stop();
      for (const node of nodes) {
        expect(
          await askUntil(
            () => readiness(node),
            (answer) => answer.status === 503,
            5_000,
          ),
        ).toEqual({
          status: 503,
          body: expect.objectContaining({ status: 'unavailable', redis: 'down', database: 'up' }),
        });
      }
      expect((await fetch(`${nodes[0]!.url}/healthz`)).status).toBe(200);
      await pause(1_000);
      await redis.start();
      for (const node of nodes)
        expect(
          await askUntil(
            () => readiness(node),
            (answer) => answer.status === 200,
            10_000,
          ),
        ).toEqual({ status: 200, body: expect.objectContaining({ status: 'ready', redis: 'up', database: 'up' }) });
      expect(await askUntil(everyNodeServes, (served) => served, 10_000)).toBe(true);
    });
    expectAnsweredInTime(answers);
    expect(answers.some((answer) => answer.status === 503)).toBe(true);
  }, 40_000);

  it('keeps serving when Redis loses every key (FLUSHALL)', async () => {
    const answers = await phase(async () => {
      await redis.empty();
      await pause(1_000);
      expect(await askUntil(everyNodeServes, (served) => served, 10_000)).toBe(true);
    });
    expectAnsweredInTime(answers);
  }, 30_000);

  it('has a usage row and a ledger entry for every acknowledged request, and the balances verify', async () => {
    await settleEverything(
      nodes.map((node) => node.running),
      user.id,
    );
    for (const node of nodes)
      await askUntil(
        async () => node.running.billing.writer.unwrittenRows,
        (rows) => rows === 0,
        15_000,
      );
    const rows = await countRows();
    expect(rows).toEqual({ acknowledgedLogs: acknowledged.length, settlementEntries: acknowledged.length });
    expect(await nodes[0]!.running.billing.store.findBalanceMismatches()).toEqual([]);
    // The shared wallet equals the database again: a freeze, a stop and a FLUSHALL left no hold, unwritten charge or
    // stale balance behind once every node reconciled (they do every 5 s and on reconnection; here at once).
    for (const node of nodes) await node.running.billing.reconcileWallet();
    const client = new Redis(redis.url);
    try {
      const store = nodes[0]!.running.billing.store;
      const report = await findWalletDrift(client, (userIds) => store.readStoredBalances(userIds));
      expect(report).toMatchObject({ drift: [], liveHeld: 0, livePending: 0 });
      const stored = (await store.readStoredBalance(user.id))!;
      expect(await client.hgetall(walletKey(user.id))).toEqual({
        durable: String(stored.balance),
        debt: String(stored.debt),
        sequence: String(stored.sequence),
      });
    } finally {
      await client.quit();
    }
  }, 30_000);
});
