// GET /api/admin/status: the configured sign-in and payment providers, and the last payment webhook each provider
// delivered (verified or forged), recorded in the database so every node sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/storage/create-database.js';
import { startBillingTestGateway, type BillingTestGateway } from '../billing/start-billing-test-gateway.js';
import { startStripeFake, type StripeFake } from '../doubles/stripe/stripe-fake.js';
import { callApi, createSignedInUser } from '../payments/payment-test-api.js';

let stripe: StripeFake;
let configured: BillingTestGateway;
let bare: BillingTestGateway;

beforeAll(async () => {
  stripe = await startStripeFake();
  configured = await startBillingTestGateway({
    models: ['status-model'],
    config: {
      signIn: {
        publicUrl: undefined,
        github: undefined,
        oidc: {
          issuer: 'https://login.example.test/realms/staff',
          clientId: 'gateway',
          clientSecret: 'oidc-client-secret',
          displayName: 'Company SSO',
        },
      },
    },
    payments: {
      stripe: {
        secretKey: stripe.secretKey,
        webhookSecret: stripe.webhookSecret,
        apiUrl: stripe.url,
        currency: 'usd',
        microUnitsPerCurrencyUnit: 1_000_000,
      },
    },
  });
  stripe.webhookUrl = `${configured.url}/api/payments/stripe/webhook`;
  bare = await startBillingTestGateway({ models: ['status-model'] });
});

afterAll(async () => {
  await configured?.close();
  await bare?.close();
  await stripe?.close();
});

describe('GET /api/admin/status', () => {
  it('is for administrators only', async () => {
    const { token } = await createSignedInUser(configured);
    expect((await callApi(configured, 'GET', '/admin/status', token)).status).toBe(403);
  });

  it('says what is not configured, and that no webhook came yet', async () => {
    const { token } = await createSignedInUser(bare, 'admin');
    const status = await callApi(bare, 'GET', '/admin/status', token);
    expect(status.status).toBe(200);
    expect(status.body.signIn).toEqual({
      password: true,
      github: { configured: false, host: null },
      oidc: { configured: false, name: null, issuerHost: null },
    });
    expect(status.body.payments).toEqual([
      { method: 'stripe', configured: false, mode: null, currency: null, lastDelivery: null },
      { method: 'alipay', configured: false, mode: null, sandbox: null, currency: null, lastDelivery: null },
    ]);
  });

  it('names the configured providers without a secret, and records a verified and then a forged Stripe webhook', async () => {
    const { token: adminToken } = await createSignedInUser(configured, 'admin');
    const first = await callApi(configured, 'GET', '/admin/status', adminToken);
    expect(first.body.signIn.oidc).toEqual({ configured: true, name: 'Company SSO', issuerHost: 'login.example.test' });
    expect(first.body.payments[0]).toEqual({
      method: 'stripe',
      configured: true,
      mode: 'test',
      currency: 'usd',
      lastDelivery: null,
    });
    expect(JSON.stringify(first.body)).not.toContain('oidc-client-secret');
    expect(JSON.stringify(first.body)).not.toContain(stripe.secretKey);
    expect(JSON.stringify(first.body)).not.toContain(stripe.webhookSecret);

    const { token } = await createSignedInUser(configured);
    const created = await callApi(configured, 'POST', '/topup/orders', token, { method: 'stripe', amount: '5' });
    const orderId: string = created.body.order.id;
    const sessionId: string = created.body.order.providerReference;
    expect((await stripe.pay(sessionId)).webhookStatus).toBe(200);
    const verified = await callApi(configured, 'GET', '/admin/status', adminToken);
    expect(verified.body.payments[0].lastDelivery).toEqual({
      method: 'stripe',
      receivedAt: expect.any(Number),
      verified: true,
      outcome: 'credited',
      orderId,
    });

    expect(await stripe.deliver('checkout.session.completed', sessionId)).toBe(200);
    expect((await callApi(configured, 'GET', '/admin/status', adminToken)).body.payments[0].lastDelivery).toMatchObject(
      { verified: true, outcome: 'unchanged', orderId },
    );

    expect(await stripe.deliver('checkout.session.completed', sessionId, { signature: 'bad' })).toBe(400);
    const forged = await callApi(configured, 'GET', '/admin/status', adminToken);
    expect(forged.body.payments[0].lastDelivery).toMatchObject({
      method: 'stripe',
      verified: false,
      outcome: 'rejected',
      orderId: null,
    });
    expect(forged.body.payments[1].lastDelivery).toBeNull();

    // A flood of forged (unauthenticated) deliveries overwrites one row instead of growing the table.
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect(await stripe.deliver('checkout.session.completed', sessionId, { signature: 'bad' })).toBe(400);
    const { database } = createDatabase(configured.databaseUrl);
    try {
      const rows = await database
        .selectFrom('payment_webhook_deliveries')
        .select(['id', 'verified'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 'stripe:rejected', verified: 0 },
        { id: 'stripe:verified', verified: 1 },
      ]);
    } finally {
      await database.destroy();
    }
  });
});
