import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TopupService } from '../../accounts/payments/topup-service.js';
import type { WebhookDeliveryRecord } from '../../storage/topup-order-records.js';
import { ForgedPaymentMessageError } from '../../accounts/payments/payment-provider.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ApiRouteContext } from './api-routes.js';

/**
 * The providers' server-to-server notifications: no session, no cookie, authenticated by signature alone. Each
 * sits in its own plugin scope so the raw-body (Stripe) and form (Alipay) parsers apply to that route only.
 */
export async function registerApiPaymentWebhookRoutes(app: FastifyInstance, { api }: ApiRouteContext): Promise<void> {
  await app.register(async (stripeScope) => {
    // The signature covers the exact bytes Stripe sent: parse nothing before verifying.
    stripeScope.removeContentTypeParser('application/json');
    stripeScope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    stripeScope.post('/payments/stripe/webhook', async (request) => {
      const service = api.topup;
      const provider = service?.options.stripe;
      if (!service || !provider) throw new GatewayError('not_found', 'Stripe is not set up on this gateway.');
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['stripe-signature'];
      let report;
      try {
        report = await provider.readWebhook(
          body,
          typeof header === 'string' ? header : undefined,
          service.options.clock(),
        );
      } catch (error) {
        if (!(error instanceof ForgedPaymentMessageError)) throw error;
        request.log.warn(
          { reason: error.message, address: request.ip },
          'refused a Stripe webhook that failed verification',
        );
        await recordDelivery(request, service, {
          method: 'stripe',
          verified: false,
          outcome: 'rejected',
          orderId: null,
        });
        throw new GatewayError('invalid_request_error', 'The Stripe signature does not verify.', {
          param: 'stripe-signature',
        });
      }
      const outcome = report === undefined ? 'ignored' : await service.applyReport(report, 'stripe');
      await recordDelivery(request, service, {
        method: 'stripe',
        verified: true,
        outcome,
        orderId: report?.orderId ?? null,
      });
      return { received: true, outcome };
    });
  });

  await app.register(async (alipayScope) => {
    await alipayScope.register(formBody);
    alipayScope.post('/payments/alipay/notify', async (request, reply) => {
      const service = api.topup;
      const provider = service?.options.alipay;
      if (!service || !provider) throw new GatewayError('not_found', 'Alipay is not set up on this gateway.');
      const fields = readFormFields(request.body);
      let report;
      try {
        report = provider.readNotification(fields);
      } catch (error) {
        if (!(error instanceof ForgedPaymentMessageError)) throw error;
        request.log.warn(
          { reason: error.message, address: request.ip, orderId: fields['out_trade_no'] },
          'refused an Alipay notification that failed verification',
        );
        await recordDelivery(request, service, {
          method: 'alipay',
          verified: false,
          outcome: 'rejected',
          orderId: fields['out_trade_no']?.slice(0, 100) ?? null,
        });
        void reply.code(400).type('text/plain');
        return 'fail';
      }
      const outcome = report === undefined ? 'ignored' : await service.applyReport(report, 'alipay');
      await recordDelivery(request, service, {
        method: 'alipay',
        verified: true,
        outcome,
        orderId: report?.orderId ?? null,
      });
      // Only after the commit: anything but exactly `success` makes Alipay deliver again.
      void reply.type('text/plain');
      return 'success';
    });
  });
}

/** Remembers the delivery for the admin status page; a failure to remember must not fail the provider's call. */
async function recordDelivery(
  request: FastifyRequest,
  service: TopupService,
  delivery: Omit<WebhookDeliveryRecord, 'receivedAt'>,
): Promise<void> {
  await service.options.store
    .recordWebhookDelivery({ ...delivery, receivedAt: service.options.clock() })
    .catch((error: unknown) =>
      request.log.error({ err: error, method: delivery.method }, 'recording a payment webhook delivery failed'),
    );
}

function readFormFields(body: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (body === null || typeof body !== 'object') return fields;
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
  return fields;
}
