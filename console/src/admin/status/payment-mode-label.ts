import type { TFunction } from 'i18next';
import type { PaymentStatus } from './status-types';

/** How a configured payment method runs, in words: Stripe test/live, Alipay redirect/QR and sandbox. */
export function paymentModeLabel(payment: PaymentStatus, t: TFunction): string {
  switch (payment.method) {
    case 'stripe':
      return payment.mode === 'live' ? t('status.payments.stripeLive') : t('status.payments.stripeTest');
    case 'alipay': {
      const mode = payment.mode === 'qr' ? t('status.payments.alipayQr') : t('status.payments.alipayPage');
      return payment.sandbox ? t('status.payments.sandbox', { mode }) : mode;
    }
    default: {
      const unreachable: never = payment;
      return unreachable;
    }
  }
}
