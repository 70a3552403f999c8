// Top-up through Alipay end to end: the real `alipay-sdk` against a loopback Alipay fake with RSA2 keys made by
// node:crypto; notifications verified, credited exactly once, answered `success` only after the commit.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPaymentConfig } from '../../src/accounts/payments/payment-config.js';
import { createAlipayPaymentProvider } from '../../src/accounts/payments/alipay/alipay-payment-provider.js';
import type { TopupOrderRecord } from '../../src/storage/topup-order-records.js';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { startAlipayFake, type AlipayFake } from '../doubles/alipay/alipay-fake.js';
import { callApi, createSignedInUser, paymentEntries } from './payment-test-api.js';

let alipay: AlipayFake;
let gateway: BillingTestGateway;

beforeAll(async () => {
  alipay = await startAlipayFake();
  gateway = await startBillingTestGateway({ models: ['payment-model'] });
  // The settings come from the environment the way an operator writes them: key files, rate, bonus.
  const privateKeyFile = path.join(gateway.dataDirectory, 'app-private-key.pem');
  const publicKeyFile = path.join(gateway.dataDirectory, 'alipay-public-key.pem');
  await writeFile(privateKeyFile, alipay.appKeys.privateKey);
  await writeFile(publicKeyFile, alipay.platformKeys.publicKey);
  const config = loadPaymentConfig({
    GATEWAY_ALIPAY_APP_ID: alipay.appId,
    GATEWAY_ALIPAY_PRIVATE_KEY_FILE: privateKeyFile,
    GATEWAY_ALIPAY_PUBLIC_KEY_FILE: publicKeyFile,
    GATEWAY_ALIPAY_GATEWAY_URL: `${alipay.url}/gateway.do`,
    GATEWAY_ALIPAY_SELLER_ID: alipay.sellerId,
    GATEWAY_ALIPAY_UNITS_PER_CNY: '0.14',
    GATEWAY_TOPUP_BONUS_FIXED: '1',
    GATEWAY_TOPUP_RECONCILE_AFTER_SECONDS: '0',
    GATEWAY_TOPUP_ORDER_LIFETIME_SECONDS: '0',
  });
  await gateway.close();
  gateway = await startBillingTestGateway({ models: ['payment-model'], payments: config });
});

afterAll(async () => {
  await gateway?.close();
  await alipay?.close();
});

async function createOrder(token: string, amount: string): Promise<{ orderId: string; redirectUrl: string }> {
  const created = await callApi(gateway, 'POST', '/topup/orders', token, { method: 'alipay', amount });
  expect(created.status).toBe(201);
  return { orderId: created.body.order.id, redirectUrl: created.body.redirectUrl };
}

async function createOpenedOrder(token: string, amount: string): Promise<string> {
  const { orderId, redirectUrl } = await createOrder(token, amount);
  expect(await alipay.openCashier(redirectUrl)).toEqual({ status: 200, outTradeNo: orderId });
  return orderId;
}

async function orderStatus(token: string, orderId: string): Promise<string> {
  return (await callApi(gateway, 'GET', `/topup/orders/${orderId}`, token)).body.status;
}

describe('Alipay top-up', () => {
  it('page pay: a signed gateway URL, the verified notify credits at the CNY rate, the bonus only on the first order', async () => {
    const { user, token } = await createSignedInUser(gateway);
    expect((await callApi(gateway, 'GET', '/topup/options', token)).body.methods).toEqual([
      { method: 'alipay', currency: 'cny', unitsPerCurrencyUnit: '0.14', kind: 'redirect' },
    ]);
    const { orderId, redirectUrl } = await createOrder(token, '10');
    expect(redirectUrl.startsWith(`${alipay.url}/gateway.do?`)).toBe(true);
    expect(await alipay.openCashier(redirectUrl)).toEqual({ status: 200, outTradeNo: orderId });
    // 10 units at 0.14 per yuan: 71.43 yuan (rounded up to the fen), which buys 10.0002 units.
    expect(alipay.trades.get(orderId)).toMatchObject({
      totalAmount: '71.43',
      notifyUrl: `${gateway.url}/api/payments/alipay/notify`,
      returnUrl: `${gateway.url}/top-up/return?order=${orderId}`,
    });
    // A tampered pay URL is refused by the cashier: the fake checks the request signature.
    expect((await alipay.openCashier(redirectUrl.replace('71.43', '0.01'))).status).toBe(400);

    expect(await alipay.pay(orderId)).toEqual({ answers: ['success'], statuses: [200] });
    expect((await callApi(gateway, 'GET', `/topup/orders/${orderId}`, token)).body).toMatchObject({
      status: 'paid',
      amountPaidMinor: 7143,
      amountPaid: '71.43',
      currency: 'cny',
      credit: 10_000_200,
      bonus: 1_000_000,
      providerReference: alipay.trades.get(orderId)?.tradeNo,
    });
    const second = await createOpenedOrder(token, '1');
    expect((await alipay.pay(second)).answers).toEqual(['success']);
    expect(await paymentEntries(gateway, user.id)).toEqual([
      { kind: 'top-up', amount: 10_000_200, reference: orderId },
      { kind: 'bonus', amount: 1_000_000, reference: orderId },
      { kind: 'top-up', amount: 1_001_000, reference: second },
    ]);
  });

  it('refuses forged notifications (bad signature, wrong app id) with 400 and no credit; Alipay keeps retrying until `success`', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const orderId = await createOpenedOrder(token, '2');
    expect(await alipay.pay(orderId, { signature: 'bad', attempts: 3 })).toEqual({
      answers: ['fail', 'fail', 'fail'],
      statuses: [400, 400, 400],
    });
    expect((await alipay.notify(orderId, { appId: '2021999999999999' })).status).toBe(400);
    expect(await paymentEntries(gateway, user.id)).toEqual([]);
    expect(await orderStatus(token, orderId)).toBe('pending');
    expect((await alipay.pay(orderId)).answers).toEqual(['success']);
    expect(await orderStatus(token, orderId)).toBe('paid');
  });

  it('credits a notification delivered twenty times at once, and its replays, exactly once', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const orderId = await createOpenedOrder(token, '3');
    alipay.payWithoutNotify(orderId);
    expect(await alipay.notifyConcurrently(orderId, 20)).toEqual(Array.from({ length: 20 }, () => 'success'));
    expect((await alipay.notify(orderId)).body).toBe('success');
    expect((await paymentEntries(gateway, user.id)).map((entry) => entry.kind)).toEqual(['top-up', 'bonus']);
    expect(await gateway.running.billing.store.readBalance(user.id)).toBe(3_000_200 + 1_000_000);
  });

  it('does not credit a wrong amount, and ends an order Alipay closed unpaid', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const tampered = await createOpenedOrder(token, '5');
    alipay.payWithoutNotify(tampered);
    expect((await alipay.notify(tampered, { totalAmount: '0.01' })).body).toBe('success');
    expect((await callApi(gateway, 'GET', `/topup/orders/${tampered}`, token)).body).toMatchObject({
      status: 'failed',
      failureReason: expect.stringContaining('amount mismatch'),
    });

    const closed = await createOpenedOrder(token, '5');
    expect((await alipay.notify(closed, { tradeStatus: 'TRADE_CLOSED' })).body).toBe('success');
    expect(await orderStatus(token, closed)).toBe('expired');
    expect(await paymentEntries(gateway, user.id)).toEqual([]);
  });

  it('reconciles a lost notify through the trade query, expires orders never paid, and lets an admin re-check', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const { token: adminToken } = await createSignedInUser(gateway, 'admin');
    const lost = await createOpenedOrder(token, '4');
    const neverOpened = await createOrder(token, '4');
    alipay.payWithoutNotify(lost);
    await gateway.running.topup.sweep();
    expect(await orderStatus(token, lost)).toBe('paid');
    expect(await orderStatus(token, neverOpened.orderId)).toBe('expired');

    const rechecked = await createOpenedOrder(token, '6');
    alipay.payWithoutNotify(rechecked);
    const answer = await callApi(gateway, 'POST', `/admin/orders/${rechecked}/recheck`, adminToken);
    expect(answer.body).toMatchObject({ providerSays: 'paid', outcome: 'credited', order: { status: 'paid' } });
    expect((await paymentEntries(gateway, user.id)).map((entry) => [entry.kind, entry.reference])).toEqual([
      ['top-up', lost],
      ['bonus', lost],
      ['top-up', rechecked],
    ]);
    expect(alipay.badRequestSignatures).toBe(1);
  });

  it('face-to-face mode precreates a QR code through the signed v3 API', async () => {
    const config = gateway.running.topup.options.config.alipay;
    if (!config) throw new Error('alipay is configured above');
    const provider = createAlipayPaymentProvider({ ...config, mode: 'qr' });
    const order: TopupOrderRecord = {
      id: 'top_qr_test',
      userId: 'nobody',
      method: 'alipay',
      status: 'pending',
      amountPaidMinor: 1234,
      currency: 'cny',
      creditMicroUnits: 0,
      bonusMicroUnits: 0,
      providerReference: null,
      failureReason: null,
      createdAt: 0,
      paidAt: null,
      updatedAt: 0,
      refundedMinor: 0,
      reversedCreditMicroUnits: 0,
      reversedBonusMicroUnits: 0,
    };
    expect(await provider.queryOrder(order)).toEqual({
      orderId: order.id,
      outcome: 'pending',
      providerReference: null,
    });
    const started = await provider.startCheckout(order, {
      notifyUrl: 'http://127.0.0.1:9/notify',
      returnUrl: 'http://127.0.0.1:9/return',
    });
    expect(started.instruction).toEqual({ kind: 'qr', qrCode: `https://qr.alipay.com/fake${order.id}` });
    expect(alipay.trades.get(order.id)).toMatchObject({ totalAmount: '12.34', notifyUrl: 'http://127.0.0.1:9/notify' });
  });

  it('leaves every balance equal to its ledger (`gateway billing verify`)', async () => {
    await gateway.running.billing.writer.flush();
    const verified = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'billing', 'verify'],
      {
        env: { ...process.env, GATEWAY_DATA_DIR: gateway.dataDirectory, GATEWAY_DATABASE_URL: gateway.databaseUrl },
      },
    );
    expect(verified.stdout).toMatch(/^OK/);
  });
});
