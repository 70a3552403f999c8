// A refund on one node of two sharing PostgreSQL and Redis: the debt it leaves stops spending on the other node too,
// long before that node's (deliberately slow) polling would notice, and the next top-up pays it.
import OpenAI from 'openai';
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
} from '../billing/start-billing-test-gateway.js';
import { startStripeFake, type StripeFake } from '../doubles/stripe/stripe-fake.js';
import { callApi, createSignedInUser } from './payment-test-api.js';

const redisUrl = process.env.GATEWAY_TEST_REDIS_URL;
if (!redisUrl && isContinuousIntegration())
  throw new Error('GATEWAY_TEST_REDIS_URL must be set in CI (see .ci/start-redis.sh)');
const model = 'reversal-model';

let stripe: StripeFake;
let first: BillingTestGateway;
let second: BillingTestGateway;
let database: PostgresTestDatabase | undefined;

describe.runIf(Boolean(redisUrl) && shouldRunPostgresTests())('a refund with two nodes sharing Redis', () => {
  beforeAll(async () => {
    stripe = await startStripeFake();
    database = await createPostgresTestDatabaseUrl();
    if (!database) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set');
    const payments = {
      stripe: {
        secretKey: stripe.secretKey,
        webhookSecret: stripe.webhookSecret,
        apiUrl: stripe.url,
        currency: 'usd',
        microUnitsPerCurrencyUnit: 1_000_000,
      },
      bonus: { percentMillionths: 0, fixedMicroUnits: 0, capMicroUnits: 0 },
      minimumMicroUnits: 1_000_000,
    };
    const billing = { redisUrl, reloadIntervalMs: 0, defaultMaxOutputTokens: 5 };
    const shared = { models: [model], prices: [createUnitPrice(model)], billing, databaseUrl: database.url, payments };
    first = await startBillingTestGateway(shared);
    second = await startBillingTestGateway({ ...shared, prices: [] });
    stripe.webhookUrl = `${first.url}/api/payments/stripe/webhook`;
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await database?.drop();
    await stripe?.close();
  });

  async function statusOnSecond(secret: string): Promise<{ status: number; message: string }> {
    const answer = await second
      .client(secret)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 1 })
      .then(() => ({ status: 200, message: '' }))
      .catch((error: unknown) =>
        error instanceof OpenAI.APIError
          ? { status: error.status, message: error.message }
          : { status: 0, message: '' },
      );
    return answer;
  }

  it('stops spending on the other node at once, and the next top-up pays the debt first', async () => {
    const { user, token } = await createSignedInUser(first);
    const { secret } = await first.createKey(user);
    await second.running.routing.refresh();
    await second.running.billing.refresh(true);
    const created = await callApi(first, 'POST', '/topup/orders', token, { method: 'stripe', amount: '2' });
    const sessionId: string = created.body.order.providerReference;
    expect((await stripe.pay(sessionId)).webhookStatus).toBe(200);
    expect((await statusOnSecond(secret)).status).toBe(200);

    await first.running.billing.changeBalance({
      userId: user.id,
      kind: 'adjustment',
      amount: -1_500_000,
      description: 'spent',
    });
    expect(await stripe.refund(sessionId, 200)).toBe(200);
    const stored = await first.running.billing.store.readStoredBalance(user.id);
    expect(stored).toMatchObject({ balance: 0 });
    expect(stored?.debt).toBeGreaterThan(0);

    // The shared wallet carries the debt: the second node refuses on its very next request.
    const refused = await statusOnSecond(secret);
    expect(refused.status).toBe(429);
    expect(refused.message).toMatch(/unpaid debt/);

    const again = await callApi(first, 'POST', '/topup/orders', token, { method: 'stripe', amount: '3' });
    expect((await stripe.pay(again.body.order.providerReference)).webhookStatus).toBe(200);
    expect(await first.running.billing.store.readStoredBalance(user.id)).toMatchObject({ debt: 0 });
    expect((await statusOnSecond(secret)).status).toBe(200);
    expect(await first.running.billing.store.findBalanceMismatches()).toEqual([]);
  });
});
