// GET /api/admin/status (docs/API.md "Console API").

/** What became of a payment provider's message. */
export type WebhookOutcome = 'credited' | 'unchanged' | 'failed' | 'expired' | 'pending' | 'amount-mismatch' | 'unknown-order' | 'ignored' | 'rejected';

/** The last webhook or notification a payment provider delivered. */
export interface WebhookDelivery {
  method: 'stripe' | 'alipay';
  /** Unix milliseconds */
  receivedAt: number;
  verified: boolean;
  outcome: WebhookOutcome;
  orderId: string | null;
}

/** Stripe as configured. */
export interface StripeStatus {
  method: 'stripe';
  configured: boolean;
  /** from the secret key: `test` or `live` */
  mode: 'test' | 'live' | null;
  currency: string | null;
  lastDelivery: WebhookDelivery | null;
}

/** Alipay as configured. */
export interface AlipayStatus {
  method: 'alipay';
  configured: boolean;
  /** `page` (redirect) or `qr` (face-to-face QR code) */
  mode: 'page' | 'qr' | null;
  sandbox: boolean | null;
  currency: string | null;
  lastDelivery: WebhookDelivery | null;
}

/** A payment method's status. */
export type PaymentStatus = StripeStatus | AlipayStatus;

/** GET /api/admin/status */
export interface AdminStatus {
  publicUrl: string | null;
  signIn: {
    password: boolean;
    github: { configured: boolean; host: string | null };
    oidc: { configured: boolean; name: string | null; issuerHost: string | null };
  };
  payments: PaymentStatus[];
}
