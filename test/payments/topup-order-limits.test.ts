// Fair share of top-up orders on SQLite and PostgreSQL: pending orders per user, orders per minute per user and per
// client address (the proxy-aware one), all refused with 429 before Stripe is called, and parallel requests from one
// user cannot slip past the pending cap.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { startStripeFake, type StripeFake } from '../doubles/stripe/stripe-fake.js';
import { storageTestEngines, type TestDatabase } from '../helpers/storage-test-engines.js';
import { createSignedInUser } from './payment-test-api.js';

for (const engine of storageTestEngines('topup-order-limits')) {
  describe.runIf(engine.run)(`top-up order limits on ${engine.name}`, () => {
    let stripe: StripeFake;
    let gateway: BillingTestGateway;
    let database: TestDatabase;

    beforeAll(async () => {
      stripe = await startStripeFake();
      database = await engine.create();
      gateway = await startBillingTestGateway({
        models: ['payment-model'],
        databaseUrl: database.url,
        config: { trustProxy: { kind: 'hops', hops: 1 } },
        payments: {
          stripe: {
            secretKey: stripe.secretKey,
            webhookSecret: stripe.webhookSecret,
            apiUrl: stripe.url,
            currency: 'usd',
            microUnitsPerCurrencyUnit: 1_000_000,
          },
          minimumMicroUnits: 1_000_000,
          maxPendingOrdersPerUser: 3,
          ordersPerMinutePerUser: 5,
          ordersPerMinutePerAddress: 8,
        },
      });
      stripe.webhookUrl = `${gateway.url}/api/payments/stripe/webhook`;
    });

    afterAll(async () => {
      await gateway?.close();
      await stripe?.close();
      await database?.drop();
    });

    async function createOrder(
      token: string,
      address: string,
    ): Promise<{ status: number; retryAfter: unknown; body: any }> {
      const response = await request(`${gateway.url}/api/topup/orders`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-forwarded-for': address,
        },
        body: JSON.stringify({ method: 'stripe', amount: '2' }),
      });
      return {
        status: response.statusCode,
        retryAfter: response.headers['retry-after'],
        body: await response.body.json(),
      };
    }

    it('refuses a fourth pending order with 429 before any Stripe call, and takes one again once one is paid', async () => {
      const { token } = await createSignedInUser(gateway);
      const created = [];
      for (let index = 0; index < 3; index++) created.push(await createOrder(token, '10.0.0.1'));
      expect(created.map((answer) => answer.status)).toEqual([201, 201, 201]);
      const sessionsBefore = stripe.sessions.size;

      const refused = await createOrder(token, '10.0.0.1');
      expect(refused.status).toBe(429);
      expect(refused.retryAfter).toBe('60');
      expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
      expect(refused.body.error.message).toContain('waiting for payment (at most 3)');
      expect(stripe.sessions.size).toBe(sessionsBefore);

      expect((await stripe.pay(created[0]!.body.order.providerReference)).webhookStatus).toBe(200);
      expect((await createOrder(token, '10.0.0.1')).status).toBe(201);
    });

    it('refuses a user creating more than 5 orders a minute, even with none left pending', async () => {
      const { token } = await createSignedInUser(gateway);
      for (let index = 0; index < 5; index++) {
        const created = await createOrder(token, '10.0.0.2');
        expect(created.status).toBe(201);
        expect((await stripe.pay(created.body.order.providerReference)).webhookStatus).toBe(200);
      }
      const sessionsBefore = stripe.sessions.size;
      const refused = await createOrder(token, '10.0.0.2');
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limit_exceeded');
      expect(refused.body.error.message).toContain('at most 5 top-up orders per minute');
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(stripe.sessions.size).toBe(sessionsBefore);
    });

    it('refuses a client address creating more than 8 orders a minute across users, and serves other addresses', async () => {
      const users = [
        await createSignedInUser(gateway),
        await createSignedInUser(gateway),
        await createSignedInUser(gateway),
      ];
      const statuses = [];
      for (const { token } of users)
        for (let index = 0; index < 3; index++) statuses.push((await createOrder(token, '10.0.0.3')).status);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 429]);
      const refused = await createOrder(users[2]!.token, '10.0.0.3');
      expect(refused.body.error.message).toContain('from one address');
      expect((await createOrder(users[2]!.token, '10.0.0.4')).status).toBe(201);
    });

    it('lets exactly 3 of 6 parallel orders of one user through', async () => {
      const { user, token } = await createSignedInUser(gateway);
      const answers = await Promise.all(Array.from({ length: 6 }, () => createOrder(token, '10.0.0.5')));
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(3);
      const orders = await gateway.running.topup.listOrders({ userId: user.id, limit: 10 });
      expect(orders.filter((order) => order.status === 'pending')).toHaveLength(3);
    });
  });
}
