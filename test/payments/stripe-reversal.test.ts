// Stripe payments that reverse, end to end: the real `stripe` client against the loopback Stripe fake, refund and
// dispute events signed exactly as Stripe signs them. A reversal takes the credit (and the first-top-up bonus) back
// in one transaction, from the balance as far as it covers and as debt beyond, exactly once per change.
import OpenAI from 'openai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import { startStripeFake, type StripeFake } from '../doubles/stripe/stripe-fake.js';
import { callApi, createSignedInUser } from './payment-test-api.js';
import type { UserRecord } from '../../src/storage/store-records.js';

let stripe: StripeFake;
let gateway: BillingTestGateway;
let adminToken: string;

beforeAll(async () => {
  stripe = await startStripeFake();
  gateway = await startBillingTestGateway({
    models: ['payment-model'],
    prices: [createUnitPrice('payment-model')],
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
  adminToken = (await createSignedInUser(gateway, 'admin')).token;
});

afterAll(async () => {
  await gateway?.close();
  await stripe?.close();
});

/** Creates an order of `amount` units and pays it through the fake's hosted page (the signed webhook credits it). */
async function paidOrder(token: string, amount: string): Promise<{ orderId: string; sessionId: string }> {
  const created = await callApi(gateway, 'POST', '/topup/orders', token, { method: 'stripe', amount });
  expect(created.status).toBe(201);
  const orderId: string = created.body.order.id;
  const sessionId: string = created.body.order.providerReference;
  expect((await stripe.pay(sessionId)).webhookStatus).toBe(200);
  expect((await order(token, orderId)).status).toBe('paid');
  return { orderId, sessionId };
}

async function order(token: string, orderId: string): Promise<Record<string, unknown>> {
  return (await callApi(gateway, 'GET', `/topup/orders/${orderId}`, token)).body;
}

async function money(user: UserRecord): Promise<{ balance: number; debt: number }> {
  const stored = await gateway.running.billing.store.readStoredBalance(user.id);
  return { balance: stored?.balance ?? 0, debt: stored?.debt ?? 0 };
}

/** The user's reversal ledger entries, oldest first. */
async function reversals(
  user: UserRecord,
): Promise<Array<{ amount: number; debtChange: number; reference: string | null }>> {
  const entries = await gateway.running.billing.store.listLedgerEntries(user.id, { limit: 100 });
  return entries
    .filter((entry) => entry.kind === 'topup-reversal')
    .reverse()
    .map((entry) => ({ amount: entry.amount, debtChange: entry.debtChange, reference: entry.reference }));
}

async function expectLedgerReconciles(): Promise<void> {
  expect(await gateway.running.billing.store.findBalanceMismatches()).toEqual([]);
}

describe('Stripe refunds and disputes', () => {
  it('a full refund takes the whole credit back once; a repeated or concurrent delivery changes nothing', async () => {
    const { user, token } = await createSignedInUser(gateway);
    await paidOrder(token, '5'); // the first order: 5 + 1 bonus
    const { orderId, sessionId } = await paidOrder(token, '4'); // no bonus
    expect(await money(user)).toEqual({ balance: 10_000_000, debt: 0 });

    expect(await stripe.refund(sessionId, 400)).toBe(200);
    expect(await money(user)).toEqual({ balance: 6_000_000, debt: 0 });
    expect(await order(token, orderId)).toMatchObject({
      status: 'refunded',
      refundedMinor: 400,
      reversedCredit: 4_000_000,
      reversedBonus: 0,
    });
    expect(await reversals(user)).toEqual([{ amount: -4_000_000, debtChange: 0, reference: orderId }]);

    // Stripe retries: the same event again, and ten copies at once.
    expect(await stripe.redeliverLast()).toBe(200);
    expect(await Promise.all(Array.from({ length: 10 }, () => stripe.redeliverLast()))).toEqual(
      Array.from({ length: 10 }, () => 200),
    );
    expect(await money(user)).toEqual({ balance: 6_000_000, debt: 0 });
    expect(await reversals(user)).toHaveLength(1);

    // The audit log names the provider, the event and what was taken.
    const audit = await callApi(gateway, 'GET', `/admin/audit-log?action=order.refund&targetId=${orderId}`, adminToken);
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({
      actorLabel: 'stripe webhook',
      targetType: 'order',
      details: {
        userId: user.id,
        refundedMinor: 400,
        statusBefore: 'paid',
        statusAfter: 'refunded',
        creditTakenBack: 4_000_000,
        bonusTakenBack: 0,
        balanceChange: -4_000_000,
        debtChange: 0,
      },
    });
    await expectLedgerReconciles();
  });

  it('partial refunds of the first order take back exactly their share of the credit and of the bonus', async () => {
    const { user, token } = await createSignedInUser(gateway);
    // 3 units paid as 300 cents; bonus 0.3 + 0.5 = 0.8.
    const { orderId, sessionId } = await paidOrder(token, '3');
    expect(await money(user)).toEqual({ balance: 3_800_000, debt: 0 });

    expect(await stripe.refund(sessionId, 100)).toBe(200);
    // A third of 3,000,000 and of 800,000 (rounded down: 266,666).
    expect(await order(token, orderId)).toMatchObject({
      status: 'partially-refunded',
      refundedMinor: 100,
      reversedCredit: 1_000_000,
      reversedBonus: 266_666,
    });
    expect(await money(user)).toEqual({ balance: 3_800_000 - 1_266_666, debt: 0 });

    expect(await stripe.refund(sessionId, 200)).toBe(200);
    expect(await order(token, orderId)).toMatchObject({
      status: 'refunded',
      refundedMinor: 300,
      reversedCredit: 3_000_000,
      reversedBonus: 800_000,
    });
    // All of it is gone, to the micro-unit.
    expect(await money(user)).toEqual({ balance: 0, debt: 0 });
    expect(await reversals(user)).toEqual([
      { amount: -1_266_666, debtChange: 0, reference: orderId },
      { amount: -2_533_334, debtChange: 0, reference: orderId },
    ]);
    await expectLedgerReconciles();
  });

  it('a late delivery of an earlier, smaller refund changes nothing (the amounts are cumulative)', async () => {
    const { user, token } = await createSignedInUser(gateway);
    await paidOrder(token, '1');
    const { orderId, sessionId } = await paidOrder(token, '10');
    const before = await money(user);
    expect(await stripe.refund(sessionId, 250)).toBe(200);
    const firstEvent = stripe.lastEvent();
    expect(await stripe.refund(sessionId, 250)).toBe(200);
    // Stripe delivers the first refund's event again, after the second was applied.
    expect(await stripe.redeliver(firstEvent)).toBe(200);
    expect(await order(token, orderId)).toMatchObject({ status: 'partially-refunded', refundedMinor: 500 });
    expect(await money(user)).toEqual({ balance: before.balance - 5_000_000, debt: 0 });
    expect(await reversals(user)).toHaveLength(2);
    await expectLedgerReconciles();
  });

  it('a dispute takes the amount back at once; won gives it back, lost keeps it', async () => {
    const { user, token } = await createSignedInUser(gateway);
    await paidOrder(token, '2'); // 2 + 0.7 bonus
    const { orderId, sessionId } = await paidOrder(token, '6');
    expect(await money(user)).toEqual({ balance: 8_700_000, debt: 0 });

    const won = await stripe.openDispute(sessionId, 600);
    expect(won.status).toBe(200);
    expect(await order(token, orderId)).toMatchObject({ status: 'disputed', reversedCredit: 6_000_000 });
    expect(await money(user)).toEqual({ balance: 2_700_000, debt: 0 });
    expect(await stripe.redeliverLast()).toBe(200);
    expect(await money(user)).toEqual({ balance: 2_700_000, debt: 0 });

    expect(await stripe.closeDispute(won.disputeId, 'won')).toBe(200);
    expect(await order(token, orderId)).toMatchObject({ status: 'paid', reversedCredit: 0 });
    expect(await money(user)).toEqual({ balance: 8_700_000, debt: 0 });
    // A repeated close, or a late `created` after it, changes nothing.
    expect(await stripe.redeliverLast()).toBe(200);
    expect(await money(user)).toEqual({ balance: 8_700_000, debt: 0 });

    const lost = await stripe.openDispute(sessionId, 600);
    expect(await money(user)).toEqual({ balance: 2_700_000, debt: 0 });
    expect(await stripe.closeDispute(lost.disputeId, 'lost')).toBe(200);
    expect(await order(token, orderId)).toMatchObject({ status: 'refunded', reversedCredit: 6_000_000 });
    expect(await money(user)).toEqual({ balance: 2_700_000, debt: 0 });
    expect(await reversals(user)).toEqual([
      { amount: -6_000_000, debtChange: 0, reference: orderId },
      { amount: 6_000_000, debtChange: 0, reference: orderId },
      { amount: -6_000_000, debtChange: 0, reference: orderId },
    ]);
    const audit = await callApi(
      gateway,
      'GET',
      `/admin/audit-log?action=order.dispute&targetId=${orderId}`,
      adminToken,
    );
    expect(audit.body.data.map((entry: { details: { disputeStatus: string } }) => entry.details.disputeStatus)).toEqual(
      ['lost', 'open', 'won', 'open'],
    );
    await expectLedgerReconciles();
  });

  it('a refund after the balance was spent leaves debt, never a negative balance: spending stops until a top-up pays it', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const { secret } = await gateway.createKey(user);
    const { orderId, sessionId } = await paidOrder(token, '4'); // 4 + 0.9 bonus
    // The user spends all but 0.4 of it.
    await gateway.running.billing.changeBalance({
      userId: user.id,
      kind: 'adjustment',
      amount: -4_500_000,
      description: 'spent',
    });
    expect(await money(user)).toEqual({ balance: 400_000, debt: 0 });

    expect(await stripe.refund(sessionId, 400)).toBe(200);
    expect(await money(user)).toEqual({ balance: 0, debt: 4_500_000 });
    expect(await reversals(user)).toEqual([{ amount: -400_000, debtChange: 4_500_000, reference: orderId }]);
    expect((await callApi(gateway, 'GET', '/balance', token)).body).toMatchObject({ balance: 0, debt: 4_500_000 });
    await expectLedgerReconciles();

    gateway.simulator.reset();
    const refused = await gateway
      .client(secret)
      .chat.completions.create({ model: 'payment-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('insufficient_quota');
    expect((refused as InstanceType<typeof OpenAI.APIError>).message).toMatch(/unpaid debt/);
    expect(gateway.simulator.requests).toHaveLength(0);

    // The next top-up pays the debt first (no bonus: the refunded order was the first paid one).
    await paidOrder(token, '5');
    expect(await money(user)).toEqual({ balance: 500_000, debt: 0 });
    const entries = await gateway.running.billing.store.listLedgerEntries(user.id, { limit: 2 });
    expect(entries.map((entry) => [entry.kind, entry.amount, entry.debtChange])).toEqual([
      ['debt-repayment', -4_500_000, -4_500_000],
      ['top-up', 5_000_000, 0],
    ]);
    await expectLedgerReconciles();
  });

  it('finds the order through the Checkout Session when the charge carries no order id', async () => {
    const { user, token } = await createSignedInUser(gateway);
    stripe.omitChargeMetadata = true;
    try {
      const { orderId, sessionId } = await paidOrder(token, '2');
      expect(stripe.chargeOf(sessionId).metadata).toEqual({});
      expect(await stripe.refund(sessionId, 50)).toBe(200);
      expect(await order(token, orderId)).toMatchObject({ status: 'partially-refunded', refundedMinor: 50 });
      expect((await reversals(user)).map((entry) => entry.reference)).toEqual([orderId]);
      const dispute = await stripe.openDispute(sessionId, 150);
      expect(dispute.status).toBe(200);
      expect(await order(token, orderId)).toMatchObject({ status: 'disputed', reversedCredit: 2_000_000 });
    } finally {
      stripe.omitChargeMetadata = false;
    }
    await expectLedgerReconciles();
  });

  it('acknowledges a refund of an unpaid or unknown order without moving money; a late payment is credited net of it', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const created = await callApi(gateway, 'POST', '/topup/orders', token, { method: 'stripe', amount: '3' });
    const orderId: string = created.body.order.id;
    const sessionId: string = created.body.order.providerReference;
    // Paid at Stripe, but the paid webhook is lost: the refund is acknowledged, moves nothing, and is remembered.
    stripe.payWithoutWebhook(sessionId);
    expect(await stripe.refund(sessionId, 100)).toBe(200);
    expect(await order(token, orderId)).toMatchObject({ status: 'pending', refundedMinor: 100 });
    expect(await money(user)).toEqual({ balance: 0, debt: 0 });
    let statusPage = await callApi(gateway, 'GET', '/admin/status', adminToken);
    expect(statusPage.body.payments[0].lastDelivery).toMatchObject({ verified: true, outcome: 'not-paid' });

    // A charge naming an order this gateway does not have.
    const charge = stripe.chargeOf(sessionId);
    charge.metadata['orderId'] = 'top_no_such_order';
    expect(await stripe.refund(sessionId, 100)).toBe(200);
    statusPage = await callApi(gateway, 'GET', '/admin/status', adminToken);
    expect(statusPage.body.payments[0].lastDelivery).toMatchObject({ verified: true, outcome: 'unknown-order' });
    expect(await money(user)).toEqual({ balance: 0, debt: 0 });
    expect(await reversals(user)).toEqual([]);

    // The sweeper finds the payment: credit and bonus (3 + 0.8) less the third refunded, in one transaction.
    charge.metadata['orderId'] = orderId;
    await gateway.running.topup.sweep();
    expect(await order(token, orderId)).toMatchObject({
      status: 'partially-refunded',
      refundedMinor: 100,
      reversedCredit: 1_000_000,
      reversedBonus: 266_666,
    });
    expect(await money(user)).toEqual({ balance: 3_800_000 - 1_266_666, debt: 0 });
    // Stripe's next report says 200 of 300 refunded in all: the second third follows.
    expect(await stripe.refund(sessionId, 0)).toBe(200);
    expect(await order(token, orderId)).toMatchObject({ refundedMinor: 200, reversedCredit: 2_000_000 });
    expect(await money(user)).toEqual({ balance: 3_800_000 - 2_533_333, debt: 0 });
    await expectLedgerReconciles();
  });

  it('acknowledges a dispute of a charge Stripe no longer knows (no retry storm) and changes nothing', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const { orderId, sessionId } = await paidOrder(token, '2'); // 2 + 0.7 bonus
    const opened = await stripe.openDispute(sessionId, 200);
    expect(opened.status).toBe(200);
    expect(await money(user)).toEqual({ balance: 0, debt: 0 });
    // The close names a charge Stripe answers 404 for: acknowledged and ignored, not a 500 Stripe would retry.
    stripe.charges.delete(stripe.chargeOf(sessionId).id);
    expect(await stripe.closeDispute(opened.disputeId, 'won')).toBe(200);
    const statusPage = await callApi(gateway, 'GET', '/admin/status', adminToken);
    expect(statusPage.body.payments[0].lastDelivery).toMatchObject({ verified: true, outcome: 'ignored' });
    expect(await order(token, orderId)).toMatchObject({ status: 'disputed' });
    expect(await money(user)).toEqual({ balance: 0, debt: 0 });
    await expectLedgerReconciles();
  });

  it('leaves every balance and debt equal to its ledger (`gateway billing verify`)', async () => {
    await gateway.running.billing.writer.flush();
    const verified = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'billing', 'verify'],
      {
        env: { ...process.env, GATEWAY_DATA_DIR: gateway.dataDirectory, GATEWAY_DATABASE_URL: gateway.databaseUrl },
      },
    );
    expect(verified.stdout).toMatch(/^OK/);
  }, 120_000);
});
