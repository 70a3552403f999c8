// Alipay refunds end to end: the real `alipay-sdk` verifies the refund notifications the loopback fake signs as
// Alipay does (TRADE_SUCCESS with `refund_fee` for a partial refund, TRADE_CLOSED once all of it is refunded); the
// credit and the first-top-up bonus are taken back by their share, exactly once.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPaymentConfig } from '../../src/accounts/payments/payment-config.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { startAlipayFake, type AlipayFake } from '../doubles/alipay/alipay-fake.js';
import { callApi, createSignedInUser } from './payment-test-api.js';

let alipay: AlipayFake;
let gateway: BillingTestGateway;

beforeAll(async () => {
  alipay = await startAlipayFake();
  gateway = await startBillingTestGateway({ models: ['payment-model'] });
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
  });
  await gateway.close();
  gateway = await startBillingTestGateway({ models: ['payment-model'], payments: config });
});

afterAll(async () => {
  await gateway?.close();
  await alipay?.close();
});

async function paidOrder(token: string, amount: string): Promise<string> {
  const created = await callApi(gateway, 'POST', '/topup/orders', token, { method: 'alipay', amount });
  expect(created.status).toBe(201);
  const orderId: string = created.body.order.id;
  expect((await alipay.openCashier(created.body.redirectUrl)).outTradeNo).toBe(orderId);
  expect((await alipay.pay(orderId)).answers).toEqual(['success']);
  return orderId;
}

async function money(user: UserRecord): Promise<{ balance: number; debt: number }> {
  const stored = await gateway.running.billing.store.readStoredBalance(user.id);
  return { balance: stored?.balance ?? 0, debt: stored?.debt ?? 0 };
}

describe('Alipay refunds', () => {
  it('a partial then the full refund take back the share of credit and bonus once each; repeats change nothing', async () => {
    const { user, token } = await createSignedInUser(gateway);
    // 10 units at 0.14 per yuan: 71.43 CNY, crediting 10.000200 units, plus the fixed bonus of 1.
    const orderId = await paidOrder(token, '10');
    expect(await money(user)).toEqual({ balance: 11_000_200, debt: 0 });

    // 20.00 of 71.43 yuan refunded: 2000/7143 of 10,000,200 and of 1,000,000, rounded down.
    expect(await alipay.refund(orderId, 2000)).toEqual({ status: 200, body: 'success' });
    const creditShare = Math.floor((10_000_200 * 2000) / 7143);
    const bonusShare = Math.floor((1_000_000 * 2000) / 7143);
    expect((await callApi(gateway, 'GET', `/topup/orders/${orderId}`, token)).body).toMatchObject({
      status: 'partially-refunded',
      refundedMinor: 2000,
      reversedCredit: creditShare,
      reversedBonus: bonusShare,
    });
    expect(await money(user)).toEqual({ balance: 11_000_200 - creditShare - bonusShare, debt: 0 });

    // Alipay delivers again until it reads `success`: the same notification changes nothing.
    expect(await alipay.notify(orderId)).toEqual({ status: 200, body: 'success' });
    expect(await alipay.notifyConcurrently(orderId, 5)).toEqual(Array.from({ length: 5 }, () => 'success'));
    expect(await money(user)).toEqual({ balance: 11_000_200 - creditShare - bonusShare, debt: 0 });

    // The rest: the trade closes, and all of the credit and bonus is gone, to the micro-unit.
    expect(await alipay.refund(orderId, 5143)).toEqual({ status: 200, body: 'success' });
    expect(alipay.trades.get(orderId)?.status).toBe('TRADE_CLOSED');
    expect((await callApi(gateway, 'GET', `/topup/orders/${orderId}`, token)).body).toMatchObject({
      status: 'refunded',
      refundedMinor: 7143,
      reversedCredit: 10_000_200,
      reversedBonus: 1_000_000,
    });
    expect(await money(user)).toEqual({ balance: 0, debt: 0 });
    const entries = await gateway.running.billing.store.listLedgerEntries(user.id, { limit: 10 });
    expect(entries.filter((entry) => entry.kind === 'topup-reversal').map((entry) => entry.reference)).toEqual([
      orderId,
      orderId,
    ]);
    expect(await gateway.running.billing.store.findBalanceMismatches()).toEqual([]);
  });

  it('a refund spent first becomes debt; a forged refund notification is refused and changes nothing', async () => {
    const { user, token } = await createSignedInUser(gateway);
    const orderId = await paidOrder(token, '1'); // 7.15 CNY: 1.001 units plus the bonus of 1
    await gateway.running.billing.changeBalance({
      userId: user.id,
      kind: 'adjustment',
      amount: -1_500_000,
      description: 'spent',
    });
    const left = (await money(user)).balance;
    expect(left).toBe(501_000);

    const trade = alipay.trades.get(orderId);
    if (!trade) throw new Error('the trade exists');
    trade.refundedFen = 715;
    trade.lastRefundNumber = 'refund-forged';
    trade.status = 'TRADE_CLOSED';
    expect(await alipay.notify(orderId, { signature: 'bad' })).toEqual({ status: 400, body: 'fail' });
    expect(await money(user)).toEqual({ balance: left, debt: 0 });

    expect(await alipay.notify(orderId)).toEqual({ status: 200, body: 'success' });
    expect(await money(user)).toEqual({ balance: 0, debt: 2_001_000 - left });
    expect((await callApi(gateway, 'GET', `/topup/orders/${orderId}`, token)).body.status).toBe('refunded');
    expect(await gateway.running.billing.store.findBalanceMismatches()).toEqual([]);
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
