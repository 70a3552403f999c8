// Two gateway nodes on one PostgreSQL database with Redis (the several-node setup): a change made through one
// node's /api reaches the other before its (deliberately slow) polling would; rate limits and balances are shared.
import OpenAI from 'openai';
import { request } from 'undici';
import { calculateRequestCost } from '../../src/billing/calculate-request-cost.js';
import { estimateWorstCaseUsage } from '../../src/billing/estimate-worst-case-usage.js';
import type { MeteredRequest } from '../../src/billing/request-accounting.js';
import { requestEstimateOf } from './request-estimate-of-body.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresTestDatabaseUrl,
  isContinuousIntegration,
  shouldRunPostgresTests,
  type PostgresTestDatabase,
} from '../helpers/postgres-test-database.js';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
  settleEverything,
} from './start-billing-test-gateway.js';

const redisUrl = process.env.GATEWAY_TEST_REDIS_URL;
if (!redisUrl && isContinuousIntegration())
  throw new Error('GATEWAY_TEST_REDIS_URL must be set in CI (see .ci/start-redis.sh)');
const model = 'shared-model';
// Answers 200 words whatever was held (see debt.test.ts): with no max_tokens the hold reserves 5 output tokens.
const debtModel = 'sim-paced-200x0';
const password = 'two nodes one database';

let first: BillingTestGateway;
let second: BillingTestGateway;
let database: PostgresTestDatabase | undefined;

describe.runIf(Boolean(redisUrl) && shouldRunPostgresTests())('several nodes sharing PostgreSQL and Redis', () => {
  beforeAll(async () => {
    database = await createPostgresTestDatabaseUrl();
    if (!database) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set');
    const billing = { redisUrl, reloadIntervalMs: 0, defaultMaxOutputTokens: 5 };
    first = await startBillingTestGateway({
      models: [model, debtModel],
      prices: [createUnitPrice(model), createUnitPrice(debtModel)],
      billing,
      databaseUrl: database.url,
    });
    second = await startBillingTestGateway({ models: [model, debtModel], billing, databaseUrl: database.url });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await database?.drop();
  });

  async function callApi(
    gateway: BillingTestGateway,
    method: 'POST' | 'GET',
    path: string,
    token: string | undefined,
    body?: unknown,
  ) {
    const response = await request(`${gateway.url}/api${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.statusCode, body: (await response.body.json()) as any };
  }

  /** Asks until the answer has the expected status; the polling interval (60 s) is far longer than this loop. */
  async function eventuallyStatus(ask: () => Promise<number>, expected: number): Promise<number> {
    let status = await ask();
    for (let attempt = 0; attempt < 50 && status !== expected; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await ask();
    }
    return status;
  }

  it('announces key, balance and limit changes to every node at once', async () => {
    const user = await first.createUser('user', password);
    const token = (await callApi(first, 'POST', '/auth/login', undefined, { email: user.email, password })).body
      .token as string;
    const group = await first.createGroup();
    await first.running.store.grantUserGroups(user.id, [group.id]);
    const key = await callApi(first, 'POST', '/keys', token, { group: group.name, limits: { requestsPerMinute: 3 } });
    const askSecond = () =>
      second
        .client(key.body.key)
        .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 })
        .then(
          () => 200,
          (error: { status: number }) => error.status,
        );

    expect(await askSecond()).toBe(429); // no money yet
    const adminToken = await (async () => {
      const { adminTokenPrefix, generateConsoleToken, hashConsoleToken } =
        await import('../../src/accounts/console-token.js');
      const token = generateConsoleToken(adminTokenPrefix);
      await first.running.billing.store.createAdminToken({ tokenHash: hashConsoleToken(token), name: 'nodes' });
      return token;
    })();
    expect(
      (await callApi(first, 'POST', `/users/${user.id}/credits`, adminToken, { kind: 'top-up', amount: '1' })).status,
    ).toBe(201);
    expect(await eventuallyStatus(askSecond, 200)).toBe(200);
    // The per-minute counter (3) is shared by both nodes; the request refused for lack of money counted too.
    const askFirst = () =>
      first
        .client(key.body.key)
        .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 })
        .then(
          () => 200,
          (error: { status: number }) => error.status,
        );
    const statuses = [await askFirst(), await askSecond(), await askFirst()];
    expect(statuses.filter((status) => status === 429)).toHaveLength(statuses.length - 1);

    expect((await callApi(first, 'POST', `/keys/${key.body.id}/disable`, token)).status).toBe(200);
    expect(await eventuallyStatus(askSecond, 401)).toBe(401);
  });

  it('applies key changes made on one node to that key alone on the other, without a full reload', async () => {
    const user = await first.createUser('user', password);
    const token = (await callApi(first, 'POST', '/auth/login', undefined, { email: user.email, password })).body
      .token as string;
    const group = await first.createGroup();
    await first.running.store.grantUserGroups(user.id, [group.id]);
    await first.topUp(user, 1_000_000);
    // The second node catches up with the user, grant and top-up (not key changes: full loads), then is counted.
    await second.running.routing.refresh();
    await second.running.billing.refresh(false);
    const loadsBefore = { routing: second.running.routing.fullLoads, billing: second.running.billing.fullLoads };

    const key = await callApi(first, 'POST', '/keys', token, { group: group.name });
    expect(key.status).toBe(201);
    const askSecond = () =>
      second
        .client(key.body.key)
        .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 })
        .then(
          () => 200,
          (error: { status: number }) => error.status,
        );
    expect(await eventuallyStatus(askSecond, 200)).toBe(200);
    expect((await callApi(first, 'POST', `/keys/${key.body.id}/disable`, token)).status).toBe(200);
    expect(await eventuallyStatus(askSecond, 401)).toBe(401);
    expect((await callApi(first, 'POST', `/keys/${key.body.id}/enable`, token)).status).toBe(200);
    expect(await eventuallyStatus(askSecond, 200)).toBe(200);

    expect({ routing: second.running.routing.fullLoads, billing: second.running.billing.fullLoads }).toEqual(
      loadsBefore,
    );
  });

  it('never overdraws a balance shared by two nodes under 200 concurrent requests', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello there world' }];
    const worstCost = calculateRequestCost(
      estimateWorstCaseUsage({
        endpoint: 'chat.completions',
        estimate: requestEstimateOf('chat.completions', { model, messages, max_tokens: 20 }),
        model: { id: model },
      } as unknown as MeteredRequest).usage,
      createUnitPrice(model),
    );
    const user = await first.createUser();
    const key = await first.createKey(user);
    await second.running.routing.refresh();
    await second.running.billing.refresh(true);
    const initialBalance = 50 * worstCost;
    await first.topUp(user, initialBalance);
    const clients = [first.client(key.secret), second.client(key.secret)];
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        clients[index % 2]!.chat.completions.create({ model, messages, max_tokens: 20 }).then(
          (completion) => ({
            status: 200,
            cost: completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
          }),
          (error: { status: number }) => ({ status: error.status, cost: 0 }),
        ),
      ),
    );
    const succeeded = outcomes.filter((outcome) => outcome.status === 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(50);
    expect(outcomes.every((outcome) => outcome.status === 200 || outcome.status === 429)).toBe(true);
    const store = first.running.billing.store;
    await settleEverything([first.running, second.running], user.id);
    const balance = await store.readBalance(user.id);
    expect(balance).toBe(initialBalance - succeeded.reduce((sum, outcome) => sum + outcome.cost, 0));
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(await store.findBalanceMismatches()).toEqual([]);
    // Redis's copy agrees with the database, and no node holds or owes anything any more.
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl!);
    const wallet = await redis.hgetall(`gateway:wallet:${user.id}`);
    await redis.quit();
    expect(Number(wallet.durable)).toBe(balance);
    // A node's field leaves the wallet when it comes back to zero.
    const outstanding = Object.entries(wallet).filter(
      ([name]) => name.startsWith('held:') || name.startsWith('pending:') || name.startsWith('debt:'),
    );
    expect(outstanding).toEqual([]);
  });

  it('caps a key across nodes: 60 concurrent requests on two nodes never spend past its cap', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello there world' }];
    const worstCost = calculateRequestCost(
      estimateWorstCaseUsage({
        endpoint: 'chat.completions',
        estimate: requestEstimateOf('chat.completions', { model, messages, max_tokens: 20 }),
        model: { id: model },
      } as unknown as MeteredRequest).usage,
      createUnitPrice(model),
    );
    const user = await first.createUser();
    await first.topUp(user, 1_000 * worstCost);
    const key = await first.createKey(user);
    const cap = 10 * worstCost;
    await first.running.billing.store.setApiKeyBilling(key.apiKeyId, {
      spendingCap: cap,
      allowedIps: [],
      limits: { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null },
    });
    await first.running.billing.announceChange();
    await second.running.routing.refresh();
    await second.running.billing.refresh(true);
    const clients = [first.client(key.secret), second.client(key.secret)];
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        clients[index % 2]!.chat.completions.create({ model, messages, max_tokens: 20 }).then(
          () => 200,
          (error: { status: number }) => error.status,
        ),
      ),
    );
    expect(outcomes.filter((status) => status === 200).length).toBeGreaterThanOrEqual(10);
    expect(outcomes.every((status) => status === 200 || status === 429)).toBe(true);
    await settleEverything([first.running, second.running], user.id);
    const snapshot = await first.running.billing.store.loadBillingSnapshot();
    const spent = snapshot.apiKeys.find((entry) => entry.apiKeyId === key.apiKeyId)!.spent;
    // Each node alone would have let the key spend its whole cap: the fleet spends it once.
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(cap);
  });

  it('turns a cost the shared balance cannot cover into debt that every node refuses on, until a top-up pays it', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello' }];
    const user = await first.createUser();
    const key = await first.createKey(user);
    await second.running.routing.refresh();
    await second.running.billing.refresh(true);
    await first.topUp(user, 20);
    const answer = await first.client(key.secret).chat.completions.create({ model: debtModel, messages });
    const debt = answer.usage!.prompt_tokens + answer.usage!.completion_tokens - 20;
    expect(debt).toBeGreaterThan(0);
    // The other node refuses through the shared wallet, before the debt is even written or reloaded.
    const refused = await second
      .client(key.secret)
      .chat.completions.create({ model, messages, max_tokens: 1 })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect((refused as Error).message).toMatch(/unpaid debt/);
    const store = first.running.billing.store;
    await settleEverything([first.running, second.running], user.id);
    expect(await store.readStoredBalance(user.id)).toMatchObject({ balance: 0, debt });

    await second.topUp(user, 1_000);
    expect(await store.readStoredBalance(user.id)).toMatchObject({ balance: 1_000 - debt, debt: 0 });
    await expect(
      first.client(key.secret).chat.completions.create({ model, messages, max_tokens: 1 }),
    ).resolves.toBeDefined();
    await settleEverything([first.running, second.running], user.id);
    expect(await store.findBalanceMismatches()).toEqual([]);
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl!);
    const wallet = await redis.hgetall(`gateway:wallet:${user.id}`);
    await redis.quit();
    expect(Number(wallet.debt)).toBe(0);
    expect(
      Object.entries(wallet)
        .filter(([name]) => name.startsWith('debt:'))
        .every(([, value]) => Number(value) === 0),
    ).toBe(true);
  });
});
