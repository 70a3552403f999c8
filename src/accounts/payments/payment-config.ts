import { readFileSync } from 'node:fs';
import { parseCurrencyAmount } from '../../billing/money.js';

/** Stripe Checkout settings; present when `GATEWAY_STRIPE_SECRET_KEY` is set. */
export interface StripeConfig {
  secretKey: string;
  /** the endpoint's `whsec_...` signing secret */
  webhookSecret: string;
  /** override of the API base, e.g. `http://127.0.0.1:4010` for a loopback fake; undefined for api.stripe.com */
  apiUrl: string | undefined;
  /** lower-case ISO 4217 code charged, e.g. `usd` */
  currency: string;
  /** micro-units credited per whole currency unit paid (1 unit per dollar = 1,000,000) */
  microUnitsPerCurrencyUnit: number;
}

/** Alipay open platform settings; present when `GATEWAY_ALIPAY_APP_ID` is set. */
export interface AlipayConfig {
  appId: string;
  /** the application's RSA private key, PEM (PKCS#1 or PKCS#8) */
  privateKey: string;
  /** Alipay's RSA public key, PEM */
  alipayPublicKey: string;
  /** classic gateway (page pay), e.g. `https://openapi.alipay.com/gateway.do` */
  gatewayUrl: string;
  /** v3 API endpoint (trade query, precreate), e.g. `https://openapi.alipay.com` */
  endpoint: string;
  /** `page` (computer-website pay, a redirect) or `qr` (face-to-face precreate, a QR code) */
  mode: 'page' | 'qr';
  /** the merchant's Alipay user id (2088...) the notification's seller_id must equal; unchecked when unset */
  sellerId: string | undefined;
  /** micro-units credited per yuan paid */
  microUnitsPerCurrencyUnit: number;
}

/** The first-top-up bonus: percent of the credit plus a fixed amount, capped; paid top-ups only. */
export interface TopupBonusRule {
  /** millionths of a percent (10% = 10,000,000) */
  percentMillionths: number;
  /** micro-units */
  fixedMicroUnits: number;
  /** micro-units; 0 means no cap */
  capMicroUnits: number;
}

/** Everything about top-ups. */
export interface PaymentConfig {
  stripe: StripeConfig | undefined;
  alipay: AlipayConfig | undefined;
  /** where providers send notifications and browsers return, without a trailing slash; undefined: the listening address */
  publicUrl: string | undefined;
  /** preset amounts offered by the console, micro-units */
  presetsMicroUnits: number[];
  /** smallest top-up, micro-units */
  minimumMicroUnits: number;
  bonus: TopupBonusRule;
  /** how often the reconciliation sweeper runs, milliseconds; 0 turns it off */
  sweepIntervalMs: number;
  /** age after which a pending order is re-queried with its provider, milliseconds */
  reconcileAfterMs: number;
  /** age after which a pending order the provider does not report paid is expired, milliseconds */
  orderLifetimeMs: number;
  /** most orders a user may have pending at once; 0 = no cap */
  maxPendingOrdersPerUser: number;
  /** most orders a user may create per minute (on each node); 0 = no cap */
  ordersPerMinutePerUser: number;
  /** most orders one client address may create per minute (on each node); 0 = no cap */
  ordersPerMinutePerAddress: number;
  /** most of one user's pending orders a reconciliation pass re-checks (at least 1) */
  sweepOrdersPerUser: number;
}

/** Reads the top-up settings from the environment (docs/CONFIGURATION.md, "Top-up"). */
export function loadPaymentConfig(environment: NodeJS.ProcessEnv): PaymentConfig {
  const read = (name: string): string | undefined =>
    environment[name] === undefined || environment[name] === '' ? undefined : environment[name];
  const amount = (name: string, fallback: string): number => {
    try {
      return parseCurrencyAmount(read(name) ?? fallback);
    } catch (error) {
      throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const seconds = (name: string, fallback: number): number => {
    const raw = read(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
    return value * 1000;
  };
  const count = (name: string, fallback: number): number => {
    const raw = read(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
    return value;
  };
  const stripeSecretKey = read('GATEWAY_STRIPE_SECRET_KEY');
  const alipayAppId = read('GATEWAY_ALIPAY_APP_ID');
  const alipayMode = read('GATEWAY_ALIPAY_MODE') ?? 'page';
  if (alipayMode !== 'page' && alipayMode !== 'qr')
    throw new Error(`GATEWAY_ALIPAY_MODE must be page or qr, got "${alipayMode}"`);
  const alipayGatewayUrl = read('GATEWAY_ALIPAY_GATEWAY_URL') ?? 'https://openapi.alipay.com/gateway.do';
  const requireFile = (name: string): string => {
    const file = read(name);
    if (file === undefined) throw new Error(`${name} is required when GATEWAY_ALIPAY_APP_ID is set`);
    return readFileSync(file, 'utf8');
  };
  const stripeWebhookSecret = read('GATEWAY_STRIPE_WEBHOOK_SECRET');
  if (stripeSecretKey !== undefined && stripeWebhookSecret === undefined)
    throw new Error('GATEWAY_STRIPE_WEBHOOK_SECRET is required when GATEWAY_STRIPE_SECRET_KEY is set');
  return {
    stripe:
      stripeSecretKey === undefined
        ? undefined
        : {
            secretKey: stripeSecretKey,
            webhookSecret: stripeWebhookSecret ?? '',
            apiUrl: read('GATEWAY_STRIPE_API_URL'),
            currency: (read('GATEWAY_STRIPE_CURRENCY') ?? 'usd').toLowerCase(),
            microUnitsPerCurrencyUnit: amount('GATEWAY_STRIPE_UNITS_PER_CURRENCY_UNIT', '1'),
          },
    alipay:
      alipayAppId === undefined
        ? undefined
        : {
            appId: alipayAppId,
            privateKey: requireFile('GATEWAY_ALIPAY_PRIVATE_KEY_FILE'),
            alipayPublicKey: requireFile('GATEWAY_ALIPAY_PUBLIC_KEY_FILE'),
            gatewayUrl: alipayGatewayUrl,
            endpoint: new URL(alipayGatewayUrl).origin,
            mode: alipayMode,
            sellerId: read('GATEWAY_ALIPAY_SELLER_ID'),
            microUnitsPerCurrencyUnit: amount('GATEWAY_ALIPAY_UNITS_PER_CNY', '0.14'),
          },
    publicUrl: read('GATEWAY_PUBLIC_URL')?.replace(/\/+$/, ''),
    presetsMicroUnits: (read('GATEWAY_TOPUP_PRESETS') ?? '5,10,20,50,100')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item) => parseCurrencyAmount(item)),
    minimumMicroUnits: amount('GATEWAY_TOPUP_MINIMUM', '1'),
    bonus: {
      percentMillionths: amount('GATEWAY_TOPUP_BONUS_PERCENT', '0'),
      fixedMicroUnits: amount('GATEWAY_TOPUP_BONUS_FIXED', '0'),
      capMicroUnits: amount('GATEWAY_TOPUP_BONUS_CAP', '0'),
    },
    sweepIntervalMs: seconds('GATEWAY_TOPUP_SWEEP_INTERVAL_SECONDS', 60),
    reconcileAfterMs: seconds('GATEWAY_TOPUP_RECONCILE_AFTER_SECONDS', 180),
    orderLifetimeMs: seconds('GATEWAY_TOPUP_ORDER_LIFETIME_SECONDS', 1800),
    maxPendingOrdersPerUser: count('GATEWAY_MAX_PENDING_ORDERS_PER_USER', 5),
    ordersPerMinutePerUser: count('GATEWAY_TOPUP_ORDERS_PER_MINUTE_PER_USER', 10),
    ordersPerMinutePerAddress: count('GATEWAY_TOPUP_ORDERS_PER_MINUTE_PER_ADDRESS', 20),
    sweepOrdersPerUser: Math.max(1, count('GATEWAY_TOPUP_SWEEP_ORDERS_PER_USER', 10)),
  };
}
