// Top-up through Stripe Checkout end to end: the real `stripe` client against a loopback Stripe fake, webhooks
// signed exactly as Stripe signs them, credited exactly once, forged and stale events refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { startStripeFake, type StripeFake } from '../doubles/stripe/stripe-fake.js';
import { callApi, createSignedInUser, paymentEntries } from './payment-test-api.js';

let stripe: StripeFake;
let gateway: BillingTestGateway;

beforeAll(async () => {
  stripe = await startStripeFake();
  gateway = await startBillingTestGateway({
    models: ['payment-model'],
    payments: {
      stripe: {
        secretKey: stripe.secretKey,
        webhookSecret: stripe.webhookSecret,
        apiUrl: stripe.url,
        currency: 'usd',
        microUnitsPerCurrencyUnit: 1_000_000,
      },
      // 10% of the first paid top-up plus 0.5, at most 2 units
      bonus: { percentMillionths: 10_000_000, fixedMicroUnits: 500_000, capMicroUnits: 2_000_000 },
      minimumMicroUnits: 1_000_000,
      reconcileAfterMs: 0,
      orderLifetimeMs: 0,
    },
  });
  stripe.webhookUrl = `${gateway.url}/api/payments/stripe/webhook`;
});

afterAll(async () => {
  await gateway?.close();
  await stripe?.close();
});

async function createOrder(
  token: string,
  amount: string | number,
): Promise<{ orderId: string; sessionId: string; redirectUrl: string }> {
  const created = await callApi(gateway, 'POST', '/topup/orders', token, { method: 'stripe', amount });
  expect(created.status).toBe(201);
  return {
    orderId: created.body.order.id,
    sessionId: created.body.order.providerReference,
    redirectUrl: created.body.redirectUrl,
  };
}

describe('Stripe top-up', () => {
  it('credits the first paid order with the bonus and the second without, from the signed webhook only', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const options = await callApi(gateway, 'GET', '/topup/options', token);
    expect(options.body).toMatchObject({
      minimum: '1',
      methods: [{ method: 'stripe', currency: 'usd', unitsPerCurrencyUnit: '1', kind: 'redirect' }],
      bonus: { percent: '10', fixed: '0.5', cap: '2', eligible: true },
    });

    const first = await createOrder(token, '10');
    expect(first.redirectUrl).toBe(`${stripe.url}/pay/${first.sessionId}`);
    const session = stripe.sessions.get(first.sessionId);
    expect(session).toMatchObject({
      amount_total: 1000,
      currency: 'usd',
      client_reference_id: first.orderId,
      metadata: { orderId: first.orderId },
      success_url: `${gateway.url}/top-up/return?order=${first.orderId}`,
    });
    expect(stripe.idempotencyKeys).toContain(`topup-${first.orderId}`);
    // The browser coming back is not a payment.
    expect((await callApi(gateway, 'GET', `/topup/orders/${first.orderId}`, token)).body.status).toBe('pending');

    const paid = await stripe.pay(first.sessionId);
    expect(paid.webhookStatus).toBe(200);
    const order = await callApi(gateway, 'GET', `/topup/orders/${first.orderId}`, token);
    expect(order.body).toMatchObject({
      status: 'paid',
      amountPaidMinor: 1000,
      amountPaid: '10.00',
      currency: 'usd',
      credit: 10_000_000,
      bonus: 1_500_000,
    });
    expect(await paymentEntries(gateway, user.id)).toEqual([
      { kind: 'top-up', amount: 10_000_000, reference: first.orderId },
      { kind: 'bonus', amount: 1_500_000, reference: first.orderId },
    ]);
    expect((await callApi(gateway, 'GET', '/balance', token)).body.balance).toBe(11_500_000);
    expect((await callApi(gateway, 'GET', '/topup/options', token)).body.bonus.eligible).toBe(false);

    const second = await createOrder(token, 25.5);
    expect((await stripe.pay(second.sessionId)).webhookStatus).toBe(200);
    expect((await callApi(gateway, 'GET', `/topup/orders/${second.orderId}`, token)).body).toMatchObject({
      status: 'paid',
      credit: 25_500_000,
      bonus: 0,
    });
    expect((await paymentEntries(gateway, user.id)).filter((entry) => entry.reference === second.orderId)).toEqual([
      { kind: 'top-up', amount: 25_500_000, reference: second.orderId },
    ]);
    expect((await callApi(gateway, 'GET', '/balance', token)).body.balance).toBe(37_000_000);

    const mine = await callApi(gateway, 'GET', '/topup/orders?limit=1', token);
    expect(mine.body.data.map((entry: { id: string }) => entry.id)).toEqual([second.orderId]);
    expect(mine.body.nextCursor).not.toBeNull();
  });

  it('credits a replayed or twenty-times-concurrent event once, and refuses forged, stale and unsigned ones', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const { orderId, sessionId } = await createOrder(token, '3');
    stripe.payWithoutWebhook(sessionId);

    expect(await stripe.deliver('checkout.session.completed', sessionId, { signature: 'bad' })).toBe(400);
    expect(await stripe.deliver('checkout.session.completed', sessionId, { signature: 'stale' })).toBe(400);
    expect(await stripe.deliver('checkout.session.completed', sessionId, { signature: 'none' })).toBe(400);
    expect(await paymentEntries(gateway, user.id)).toEqual([]);

    const statuses = await stripe.deliverConcurrently('checkout.session.completed', sessionId, 20);
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 200));
    expect(await stripe.deliver('checkout.session.completed', sessionId)).toBe(200);
    expect(await stripe.deliver('checkout.session.async_payment_succeeded', sessionId)).toBe(200);
    expect((await paymentEntries(gateway, user.id)).map((entry) => entry.kind)).toEqual(['top-up', 'bonus']);
    expect((await callApi(gateway, 'GET', '/balance', token)).body.balance).toBe(3_000_000 + 800_000);

    // A late `expired` after the payment changes nothing.
    expect(await stripe.deliver('checkout.session.expired', sessionId)).toBe(200);
    expect((await callApi(gateway, 'GET', `/topup/orders/${orderId}`, token)).body.status).toBe('paid');
  });

  it('does not credit a payment whose amount differs from the order', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const { orderId, sessionId } = await createOrder(token, '5');
    stripe.payWithoutWebhook(sessionId);
    expect(await stripe.deliver('checkout.session.completed', sessionId, { amountTotal: 100 })).toBe(200);
    expect((await callApi(gateway, 'GET', `/topup/orders/${orderId}`, token)).body).toMatchObject({
      status: 'failed',
      failureReason: expect.stringContaining('amount mismatch'),
    });
    expect(await stripe.deliver('checkout.session.completed', sessionId)).toBe(200);
    expect(await paymentEntries(gateway, user.id)).toEqual([]);
  });

  it('follows delayed payments: completed unpaid waits, async success credits, async failure and expiry end the order', async () => {
    const { user, token } = await createSignedInUser(gateway);
    stripe.delayedPayments = true;
    try {
      const succeeding = await createOrder(token, '2');
      expect((await stripe.pay(succeeding.sessionId)).webhookStatus).toBe(200);
      expect((await callApi(gateway, 'GET', `/topup/orders/${succeeding.orderId}`, token)).body.status).toBe('pending');
      expect(await stripe.deliver('checkout.session.async_payment_succeeded', succeeding.sessionId)).toBe(200);
      expect((await callApi(gateway, 'GET', `/topup/orders/${succeeding.orderId}`, token)).body.status).toBe('paid');

      const failing = await createOrder(token, '2');
      expect((await stripe.pay(failing.sessionId)).webhookStatus).toBe(200);
      expect(await stripe.deliver('checkout.session.async_payment_failed', failing.sessionId)).toBe(200);
      expect((await callApi(gateway, 'GET', `/topup/orders/${failing.orderId}`, token)).body.status).toBe('failed');

      const abandoned = await createOrder(token, '2');
      expect(await stripe.deliver('checkout.session.expired', abandoned.sessionId)).toBe(200);
      expect((await callApi(gateway, 'GET', `/topup/orders/${abandoned.orderId}`, token)).body.status).toBe('expired');
    } finally {
      stripe.delayedPayments = false;
    }
    expect((await paymentEntries(gateway, user.id)).map((entry) => entry.kind)).toEqual(['top-up', 'bonus']);
  });

  it('enforces the minimum and the configured methods, and answers a provider failure with a 500 and a failed order', async () => {
    const { token } = await createSignedInUser(gateway);
    const tooSmall = await callApi(gateway, 'POST', '/topup/orders', token, { method: 'stripe', amount: '0.99' });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.error).toMatchObject({ param: 'amount' });
    expect(
      (await callApi(gateway, 'POST', '/topup/orders', token, { method: 'alipay', amount: '5' })).body.error,
    ).toMatchObject({ param: 'method' });
    expect(
      (await callApi(gateway, 'POST', '/topup/orders', token, { method: 'stripe', amount: '1.0000001' })).status,
    ).toBe(400);

    stripe.failNextCreate = 402;
    const refused = await callApi(gateway, 'POST', '/topup/orders', token, { method: 'stripe', amount: '5' });
    expect(refused.status).toBe(500);
    const orders = await callApi(gateway, 'GET', '/topup/orders', token);
    expect(orders.body.data[0]).toMatchObject({ status: 'failed' });
  });

  it('hides orders from other users; an admin lists, filters and re-checks them with Stripe (audit-logged)', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const { token: otherToken } = await createSignedInUser(gateway);
    const { token: adminToken } = await createSignedInUser(gateway, 'admin');
    const { orderId, sessionId } = await createOrder(token, '4');
    expect((await callApi(gateway, 'GET', `/topup/orders/${orderId}`, otherToken)).status).toBe(404);
    expect((await callApi(gateway, 'GET', `/topup/orders/${orderId}`, adminToken)).status).toBe(200);
    expect((await callApi(gateway, 'POST', `/admin/orders/${orderId}/recheck`, token)).status).toBe(403);

    // The webhook is lost; the admin asks Stripe.
    stripe.payWithoutWebhook(sessionId);
    const rechecked = await callApi(gateway, 'POST', `/admin/orders/${orderId}/recheck`, adminToken);
    expect(rechecked.status).toBe(200);
    expect(rechecked.body).toMatchObject({ providerSays: 'paid', outcome: 'credited', order: { status: 'paid' } });
    expect((await callApi(gateway, 'POST', `/admin/orders/${orderId}/recheck`, adminToken)).body.outcome).toBe(
      'unchanged',
    );
    expect((await paymentEntries(gateway, user.id)).map((entry) => entry.kind)).toEqual(['top-up', 'bonus']);

    const listed = await callApi(gateway, 'GET', `/admin/orders?user=${user.id}&status=paid&method=stripe`, adminToken);
    expect(listed.body.data.map((entry: { id: string }) => entry.id)).toEqual([orderId]);
    // The list names who placed each order, so the console need not show a raw user id.
    expect(listed.body.data[0].user).toEqual({ email: user.email, displayName: user.displayName });
    const audit = await callApi(
      gateway,
      'GET',
      `/admin/audit-log?action=order.recheck&targetId=${orderId}`,
      adminToken,
    );
    expect(audit.body.data).toHaveLength(2);
    expect(audit.body.data[1]).toMatchObject({
      targetType: 'order',
      details: { providerSays: 'paid', outcome: 'credited', statusBefore: 'pending' },
    });
  });

  it('reconciles: the sweeper credits a paid order whose webhook was lost and expires the unpaid ones', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const lost = await createOrder(token, '6');
    const unpaid = await createOrder(token, '7');
    stripe.payWithoutWebhook(lost.sessionId);
    await gateway.running.topup.sweep();
    expect((await callApi(gateway, 'GET', `/topup/orders/${lost.orderId}`, token)).body.status).toBe('paid');
    expect((await callApi(gateway, 'GET', `/topup/orders/${unpaid.orderId}`, token)).body).toMatchObject({
      status: 'expired',
    });
    expect((await paymentEntries(gateway, user.id)).map((entry) => [entry.kind, entry.reference])).toEqual([
      ['top-up', lost.orderId],
      ['bonus', lost.orderId],
    ]);
    // A payment Stripe reports after the local expiry is still credited (the money was taken).
    stripe.payWithoutWebhook(unpaid.sessionId);
    expect(await stripe.deliver('checkout.session.completed', unpaid.sessionId)).toBe(200);
    expect((await callApi(gateway, 'GET', `/topup/orders/${unpaid.orderId}`, token)).body.status).toBe('paid');
  });

  it('leaves every balance equal to its ledger', async () => {
    expect(await gateway.running.billing.store.findBalanceMismatches()).toEqual([]);
  });
});
