// Debt under concurrency on three gateway nodes sharing PostgreSQL and Redis: 30 concurrent requests whose vendor
// reports several times what their hold assumed, against a small balance. Every node charges what the shared wallet
// can cover and records the rest as debt; batches written by three nodes (each repaying debt from a stored balance the
// others' unwritten charges count on) must never leave a balance below zero, and the ledger must reconcile exactly.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateRequestCost } from '../../src/billing/calculate-request-cost.js';
import { estimateWorstCaseUsage } from '../../src/billing/estimate-worst-case-usage.js';
import type { MeteredRequest } from '../../src/billing/request-accounting.js';
import { requestEstimateOf } from './request-estimate-of-body.js';
import {
  createPostgresTestDatabaseUrl,
  isContinuousIntegration,
  shouldRunPostgresTests,
  type PostgresTestDatabase,
} from '../helpers/postgres-test-database.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from './start-billing-test-gateway.js';

const redisUrl = process.env.GATEWAY_TEST_REDIS_URL;
if (!redisUrl && isContinuousIntegration())
  throw new Error('GATEWAY_TEST_REDIS_URL must be set in CI (see .ci/start-redis.sh)');
// Answers 40 words; with no `max_tokens` the hold reserves GATEWAY_DEFAULT_MAX_OUTPUT_TOKENS (1 here), as a request
// with `max_tokens: 1` would, so the vendor reports several times what was held.
const model = 'sim-paced-40x0';
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hello' }];

let nodes: BillingTestGateway[] = [];
let database: PostgresTestDatabase | undefined;

describe.runIf(Boolean(redisUrl) && shouldRunPostgresTests())(
  'debt on three nodes sharing PostgreSQL and Redis',
  () => {
    beforeAll(async () => {
      database = await createPostgresTestDatabaseUrl();
      if (!database) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set');
      const billing = { redisUrl, reloadIntervalMs: 0, defaultMaxOutputTokens: 1 };
      const first = await startBillingTestGateway({
        models: [model],
        prices: [createUnitPrice(model)],
        billing,
        databaseUrl: database.url,
      });
      nodes = [
        first,
        await startBillingTestGateway({ models: [model], billing, databaseUrl: database.url }),
        await startBillingTestGateway({ models: [model], billing, databaseUrl: database.url }),
      ];
    });

    afterAll(async () => {
      for (const node of nodes.reverse()) await node.close();
      await database?.drop();
    });

    it('keeps every balance at or above zero and the ledger exact when 30 concurrent requests cost several times their hold', async () => {
      const hold = calculateRequestCost(
        estimateWorstCaseUsage(
          {
            endpoint: 'chat.completions',
            estimate: requestEstimateOf('chat.completions', { model, messages }),
            model: { id: model },
          } as unknown as MeteredRequest,
          1,
        ).usage,
        createUnitPrice(model),
      );
      const [first] = nodes;
      const users = [await first!.createUser(), await first!.createUser(), await first!.createUser()];
      const keys: Array<{ secret: string }> = [];
      for (const user of users) keys.push(await first!.createKey(user));
      for (const node of nodes) {
        await node.running.routing.refresh();
        await node.running.billing.refresh(true);
      }
      // A balance covering five holds each: the answers cost far more, so debt arises on every node at once.
      const initialBalance = 5 * hold;
      for (const user of users) await first!.topUp(user, initialBalance);

      const costByUser = new Map<string, number>(users.map((user) => [user.id, 0]));
      const outcomes = await Promise.all(
        Array.from({ length: 30 }, (_, index) => {
          const userIndex = index % users.length;
          const node = nodes[Math.floor(index / users.length) % nodes.length]!;
          return node
            .client(keys[userIndex]!.secret)
            .chat.completions.create({ model, messages })
            .then(
              (completion) => {
                const cost = completion.usage!.prompt_tokens + completion.usage!.completion_tokens;
                const userId = users[userIndex]!.id;
                costByUser.set(userId, costByUser.get(userId)! + cost);
                return { status: 200, cost };
              },
              (error: { status: number }) => ({ status: error.status, cost: 0 }),
            );
        }),
      );
      const served = outcomes.filter((outcome) => outcome.status === 200);
      expect(served.length).toBeGreaterThan(users.length);
      expect(outcomes.every((outcome) => outcome.status === 200 || outcome.status === 429)).toBe(true);
      // The vendor reported several times the hold: this burst leaves debt.
      expect(Math.min(...served.map((outcome) => outcome.cost))).toBeGreaterThan(3 * hold);

      const runtimes = nodes.map((node) => node.running);
      for (const user of users) await settleEverything(runtimes, user.id);
      const store = first!.running.billing.store;
      for (const user of users) {
        const stored = await store.readStoredBalance(user.id);
        expect(stored!.balance).toBeGreaterThanOrEqual(0);
        // Nothing forgiven, nothing charged twice: what is owed net of the balance is exactly the cost past the top-up.
        expect(stored!.debt - stored!.balance).toBe(costByUser.get(user.id)! - initialBalance);
      }
      expect(await store.findBalanceMismatches()).toEqual([]);
    });
  },
);
