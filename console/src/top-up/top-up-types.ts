// The /api answers the top-up pages read (docs/API.md "Console API"). Amounts are integer micro-units unless named.

/** A payment method the gateway offers (GET /api/topup/options). */
export type PaymentMethod = 'stripe' | 'alipay';

/** One configured payment method: its currency, its rate and whether it redirects or shows a QR code. */
export interface TopUpMethodOption {
  method: PaymentMethod;
  /** lower-case ISO 4217 code charged, e.g. `usd`, `cny` */
  currency: string;
  /** balance units per currency unit, a decimal string such as `1` or `0.14` */
  unitsPerCurrencyUnit: string;
  kind: 'redirect' | 'qr';
}

/** The first-top-up bonus rule (decimal strings) and whether the caller still qualifies. */
export interface TopUpBonusRule {
  /** percent of the credit, e.g. `10` */
  percent: string;
  /** fixed units added, e.g. `0.5` */
  fixed: string;
  /** most units the bonus can be; null for no cap */
  cap: string | null;
  eligible: boolean;
}

/** GET /api/topup/options */
export interface TopUpOptions {
  methods: TopUpMethodOption[];
  /** preset amounts in balance units, decimal strings */
  presets: string[];
  /** smallest top-up in balance units, a decimal string */
  minimum: string;
  bonus: TopUpBonusRule;
}

/** Where an order stands. */
export type TopUpOrderStatus = 'pending' | 'paid' | 'failed' | 'expired' | 'partially-refunded' | 'refunded' | 'disputed';

/** A top-up order (GET /api/topup/orders/:id). */
export interface TopUpOrder {
  id: string;
  userId: string;
  method: PaymentMethod;
  status: TopUpOrderStatus;
  /** minor units of `currency` (cents, fen) */
  amountPaidMinor: number;
  /** the same as a decimal string, e.g. `71.43` */
  amountPaid: string;
  currency: string;
  /** micro-units credited when paid */
  credit: number;
  /** micro-units of first-top-up bonus (0 when none) */
  bonus: number;
  providerReference: string | null;
  failureReason: string | null;
  /** Unix milliseconds */
  createdAt: number;
  paidAt: number | null;
  updatedAt: number;
}

/** POST /api/topup/orders: the order and either where to send the browser or the QR content to show. */
export type CreatedTopUpOrder = { order: TopUpOrder; redirectUrl: string } | { order: TopUpOrder; qrCode: string };


/** POST /api/redeem */
export interface RedeemAnswer {
  /** micro-units credited */
  amount: number;
  /** the new balance, micro-units */
  balance: number;
  /** what is still owed, micro-units */
  debt: number;
}
