import { AlipayRequestError, AlipaySdk } from 'alipay-sdk';
import type { AlipayConfig } from '../payment-config.js';
import { ForgedPaymentMessageError, type PaymentProvider, type PaymentReport } from '../payment-provider.js';
import { formatMinorUnits, parseMinorUnits } from '../quote-topup.js';

/** Alipay charges yuan; amounts are fen in the gateway and two-decimal strings on the wire. */
const alipayCurrency = 'cny';

/** Alipay page pay or face-to-face QR as a payment method, plus verification of its async notifications. */
export interface AlipayPaymentProvider extends PaymentProvider {
  /** verifies an async notification's RSA2 signature, app id and seller and maps it (payments and refunds); throws ForgedPaymentMessageError */
  readNotification(fields: Record<string, string>): PaymentReport | undefined;
}

/** Builds the Alipay method over the official SDK; `gatewayUrl` and `endpoint` may point at a loopback fake. */
export function createAlipayPaymentProvider(config: AlipayConfig): AlipayPaymentProvider {
  const sdk = new AlipaySdk({
    appId: config.appId,
    privateKey: config.privateKey,
    alipayPublicKey: config.alipayPublicKey,
    // Alipay's key tool writes PKCS#8; older keys are PKCS#1 ("BEGIN RSA PRIVATE KEY"). The SDK defaults to PKCS#1.
    keyType: config.privateKey.includes('BEGIN RSA PRIVATE KEY') ? 'PKCS1' : 'PKCS8',
    signType: 'RSA2',
    gateway: config.gatewayUrl,
    endpoint: config.endpoint,
    timeout: 20_000,
  });
  const lifetimeMinutes = 30;

  return {
    method: 'alipay',
    currency: alipayCurrency,
    microUnitsPerCurrencyUnit: config.microUnitsPerCurrencyUnit,

    async startCheckout(order, urls) {
      const totalAmount = formatMinorUnits(order.amountPaidMinor, alipayCurrency);
      if (config.mode === 'qr') {
        const result = await sdk.curl<{ qr_code?: string; out_trade_no?: string }>(
          'POST',
          '/v3/alipay/trade/precreate',
          {
            body: {
              out_trade_no: order.id,
              total_amount: totalAmount,
              subject: 'Balance top-up',
              timeout_express: `${lifetimeMinutes}m`,
              notify_url: urls.notifyUrl,
            },
          },
        );
        if (!result.data.qr_code) throw new Error('Alipay precreate returned no qr_code');
        return { instruction: { kind: 'qr', qrCode: result.data.qr_code }, providerReference: null };
      }
      const redirectUrl = sdk.pageExecute('alipay.trade.page.pay', 'GET', {
        bizContent: {
          out_trade_no: order.id,
          product_code: 'FAST_INSTANT_TRADE_PAY',
          total_amount: totalAmount,
          subject: 'Balance top-up',
          timeout_express: `${lifetimeMinutes}m`,
        },
        notifyUrl: urls.notifyUrl,
        returnUrl: urls.returnUrl,
      });
      return { instruction: { kind: 'redirect', redirectUrl }, providerReference: null };
    },

    async queryOrder(order) {
      try {
        const result = await sdk.curl<{ trade_status?: string; total_amount?: string; trade_no?: string }>(
          'POST',
          '/v3/alipay/trade/query',
          { body: { out_trade_no: order.id } },
        );
        return reportFromTrade(
          order.id,
          result.data.trade_status ?? '',
          result.data.total_amount ?? '',
          result.data.trade_no ?? null,
        );
      } catch (error) {
        // The buyer never opened the cashier (or never scanned the QR code): Alipay knows no trade yet.
        if (error instanceof AlipayRequestError && error.code === 'ACQ.TRADE_NOT_EXIST')
          return { orderId: order.id, outcome: 'pending', providerReference: null };
        throw error;
      }
    },

    readNotification(fields) {
      if (!sdk.checkNotifySignV2(fields))
        throw new ForgedPaymentMessageError('the Alipay notification signature does not verify');
      if (fields['app_id'] !== config.appId)
        throw new ForgedPaymentMessageError(`the Alipay notification is for app ${fields['app_id'] ?? '(none)'}`);
      if (config.sellerId !== undefined && fields['seller_id'] !== config.sellerId)
        throw new ForgedPaymentMessageError(`the Alipay notification is for seller ${fields['seller_id'] ?? '(none)'}`);
      const orderId = fields['out_trade_no'];
      if (orderId === undefined) return undefined;
      // A refund notifies the same URL: TRADE_SUCCESS (partial) or TRADE_CLOSED (full) with the total refunded so far
      // in `refund_fee` and its time in `gmt_refund`; a trade closed unpaid has neither.
      const refundFee = fields['refund_fee'];
      if ((refundFee !== undefined && refundFee !== '') || fields['gmt_refund'] !== undefined) {
        const refundedMinor = parseMinorUnits(refundFee ?? '');
        if (refundedMinor === undefined) return undefined;
        return {
          orderId,
          outcome: 'refunded',
          providerReference: fields['trade_no'] ?? null,
          eventId: fields['out_biz_no'] ?? fields['notify_id'] ?? '',
          refundedMinor,
          currency: alipayCurrency,
        };
      }
      return reportFromTrade(
        orderId,
        fields['trade_status'] ?? '',
        fields['total_amount'] ?? '',
        fields['trade_no'] ?? null,
      );
    },
  };
}

function reportFromTrade(
  orderId: string,
  tradeStatus: string,
  totalAmount: string,
  tradeNumber: string | null,
): PaymentReport {
  if (tradeStatus === 'TRADE_SUCCESS' || tradeStatus === 'TRADE_FINISHED') {
    return {
      orderId,
      outcome: 'paid',
      providerReference: tradeNumber,
      amountPaidMinor: parseMinorUnits(totalAmount) ?? -1,
      currency: alipayCurrency,
    };
  }
  // Closed unpaid (timed out or cancelled); a refunded trade closes too, but its notification carries the refund.
  if (tradeStatus === 'TRADE_CLOSED')
    return { orderId, outcome: 'expired', providerReference: tradeNumber, reason: 'the Alipay trade closed unpaid' };
  return { orderId, outcome: 'pending', providerReference: tradeNumber };
}
