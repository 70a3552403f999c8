// Money matrix, burst slice: a concurrent burst of matrix cases (chat, Responses and Messages × every vendor × non-
// streamed, streamed, client abort) whose answers cost several times their hold, against small balances, on one SQLite
// node and on two nodes sharing PostgreSQL and Redis. Debt arises mid-burst; afterwards every balance is at or above
// zero, the stored balances equal the ledger, each user's ledger charges equal the hand-computed price of what was
// served, and debt − balance equals that total minus the top-up exactly: nothing forgiven, nothing charged twice.
import { afterAll, describe, expect, it } from 'vitest';
import {
  createPostgresTestDatabaseUrl,
  isContinuousIntegration,
  shouldRunPostgresTests,
  type PostgresTestDatabase,
} from '../helpers/postgres-test-database.js';
import { settleEverything, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { ledgerChargeOf } from './money-assertions.js';
import { listTokenCases, publicModelOf, usageVariants, type TokenCase } from './money-cases.js';
import { expectedTokenCharge } from './money-price.js';
import { sendMoneyRequest } from './send-money-request.js';
import { startMoneyGateway, startMoneyNode, type MoneyGateway } from './start-money-gateway.js';

const redisUrl = process.env.GATEWAY_TEST_REDIS_URL;
if (!redisUrl && isContinuousIntegration())
  throw new Error('GATEWAY_TEST_REDIS_URL must be set in CI (see .ci/start-redis.sh)');

const upstreamTimeoutMs = 5_000;
/** Requests of one burst, spread over three users and every node. */
const burstSize = 36;
const userCount = 3;
/**
 * Without max_tokens the hold reserves GATEWAY_DEFAULT_MAX_OUTPUT_TOKENS, here 1: the answers (9 to 16 output tokens)
 * cost several times what was held, so a balance of a few holds goes into debt while requests are in flight.
 */
const billing = { reloadIntervalMs: 0, defaultMaxOutputTokens: 1 };
/** A balance of about two answers per user. */
const initialBalance = 150;

/** Every third chat, Responses and Messages case of the matrix (Messages always asks for its own max_tokens). */
const burstCases: TokenCase[] = listTokenCases()
  .filter((entry) => entry.endpoint !== 'completions')
  .filter((_, index) => index % 3 === 0)
  .slice(0, burstSize);

const channelSets = [
  usageVariants.map((variant) => ({
    publicModel: publicModelOf(variant),
    vendor: variant.vendor,
    vendorModel: variant.vendorModel,
  })),
];

/** Runs the burst over `nodes` and asserts the money reconciles. */
async function burstAndReconcile(nodes: BillingTestGateway[]): Promise<void> {
  const [first] = nodes;
  if (!first) throw new Error('no node');
  const users = await Promise.all(Array.from({ length: userCount }, () => first.createUser()));
  const keys: Array<{ secret: string }> = [];
  for (const user of users) keys.push(await first.createKey(user));
  for (const node of nodes) {
    await node.running.routing.refresh();
    await node.running.billing.refresh(true);
  }
  for (const user of users) await first.topUp(user, initialBalance);

  const outcomes = await Promise.all(
    burstCases.map(async (entry, index) => {
      const userIndex = index % userCount;
      const node = nodes[index % nodes.length]!;
      const answer = await sendMoneyRequest({
        baseUrl: node.url,
        secret: keys[userIndex]!.secret,
        endpoint: entry.endpoint,
        model: publicModelOf(entry.variant),
        streamed: entry.mode !== 'non-streamed',
        leaveAfterEvents: entry.mode === 'client-abort' ? entry.leaveAfterEvents : undefined,
        oneHourCacheTtl: entry.variant.variant === 'cache-write-one-hour',
        maxTokens: null,
      });
      const refused = (answer.error as { status?: unknown } | undefined)?.status === 429;
      if (answer.error !== undefined && !refused) throw answer.error;
      return {
        userId: users[userIndex]!.id,
        served: !refused,
        cost: refused ? 0 : expectedTokenCharge(entry.variant.usage),
      };
    }),
  );
  const served = outcomes.filter((outcome) => outcome.served);
  // Some were served, some refused once the balance was held or owed.
  expect(served.length).toBeGreaterThan(userCount);
  expect(served.length).toBeLessThan(burstCases.length);

  const runtimes = nodes.map((node) => node.running);
  for (const user of users) await settleEverything(runtimes, user.id);
  const store = first.running.billing.store;
  let debtors = 0;
  for (const user of users) {
    const cost = outcomes
      .filter((outcome) => outcome.userId === user.id)
      .reduce((total, outcome) => total + outcome.cost, 0);
    const stored = await store.readStoredBalance(user.id);
    expect(stored!.balance).toBeGreaterThanOrEqual(0);
    expect(stored!.debt - stored!.balance).toBe(cost - initialBalance);
    expect(await ledgerChargeOf(first, user.id)).toBe(cost);
    if (stored!.debt > 0) debtors++;
  }
  // The burst did leave debt.
  expect(debtors).toBeGreaterThan(0);
  expect(await store.findBalanceMismatches()).toEqual([]);
}

describe('a burst with debt on one SQLite node', () => {
  let money: MoneyGateway | undefined;
  afterAll(async () => {
    await money?.close();
  });

  it('leaves every balance ≥ 0 and the ledger exact', async () => {
    money = await startMoneyGateway({ channelSets, upstreamTimeoutMs, billing });
    await burstAndReconcile([money.gateway]);
  });
});

describe.runIf(Boolean(redisUrl) && shouldRunPostgresTests())(
  'a burst with debt on two nodes sharing PostgreSQL and Redis',
  () => {
    let database: PostgresTestDatabase | undefined;
    let money: MoneyGateway | undefined;
    let second: BillingTestGateway | undefined;
    afterAll(async () => {
      await second?.close();
      await money?.close();
      await database?.drop();
    });

    it('leaves every balance ≥ 0 and the ledger exact', async () => {
      database = await createPostgresTestDatabaseUrl();
      if (!database) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set');
      const shared = { ...billing, redisUrl };
      money = await startMoneyGateway({ channelSets, upstreamTimeoutMs, billing: shared, databaseUrl: database.url });
      second = await startMoneyNode({ databaseUrl: database.url, billing: shared, upstreamTimeoutMs });
      await burstAndReconcile([money.gateway, second]);
    });
  },
);
