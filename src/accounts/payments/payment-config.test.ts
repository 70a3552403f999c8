import { describe, expect, it } from 'vitest';
import { loadPaymentConfig } from './payment-config.js';

describe('loadPaymentConfig', () => {
  it('has no methods, the default presets, a minimum of one unit and no bonus by default', () => {
    expect(loadPaymentConfig({})).toMatchObject({
      stripe: undefined,
      alipay: undefined,
      publicUrl: undefined,
      presetsMicroUnits: [5_000_000, 10_000_000, 20_000_000, 50_000_000, 100_000_000],
      minimumMicroUnits: 1_000_000,
      bonus: { percentMillionths: 0, fixedMicroUnits: 0, capMicroUnits: 0 },
      sweepIntervalMs: 60_000,
      reconcileAfterMs: 180_000,
      orderLifetimeMs: 1_800_000,
    });
  });

  it('reads Stripe with its currency and rate, and refuses a secret key without a webhook secret', () => {
    expect(
      loadPaymentConfig({
        GATEWAY_STRIPE_SECRET_KEY: 'sk_test_1',
        GATEWAY_STRIPE_WEBHOOK_SECRET: 'whsec_1',
        GATEWAY_STRIPE_CURRENCY: 'EUR',
        GATEWAY_STRIPE_UNITS_PER_CURRENCY_UNIT: '1.1',
        GATEWAY_PUBLIC_URL: 'https://gw.example/',
      }),
    ).toMatchObject({
      stripe: {
        secretKey: 'sk_test_1',
        webhookSecret: 'whsec_1',
        currency: 'eur',
        microUnitsPerCurrencyUnit: 1_100_000,
        apiUrl: undefined,
      },
      publicUrl: 'https://gw.example',
    });
    expect(() => loadPaymentConfig({ GATEWAY_STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(
      /GATEWAY_STRIPE_WEBHOOK_SECRET/,
    );
  });

  it('refuses an unknown Alipay mode and Alipay without key files', () => {
    expect(() => loadPaymentConfig({ GATEWAY_ALIPAY_MODE: 'wap' })).toThrow(/page or qr/);
    expect(() => loadPaymentConfig({ GATEWAY_ALIPAY_APP_ID: '2021' })).toThrow(/GATEWAY_ALIPAY_PRIVATE_KEY_FILE/);
    expect(() => loadPaymentConfig({ GATEWAY_TOPUP_MINIMUM: 'one' })).toThrow(/GATEWAY_TOPUP_MINIMUM/);
  });
});
