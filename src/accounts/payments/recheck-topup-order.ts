import { GatewayError } from '../../core/gateway-error.js';
import type { TopupOrderRecord } from '../../storage/topup-order-records.js';
import type { AdminAction } from '../audit-actor.js';
import type { TopupService } from './topup-service.js';

/** What a re-check found: the order after it, what the provider said, and what the gateway did about it. */
export interface TopupOrderRecheck {
  order: TopupOrderRecord;
  providerSays: string;
  outcome: string;
}

/**
 * An administrator's re-check of a top-up order, for POST /api/admin/orders/:id/recheck and `gateway order recheck`:
 * asks the payment provider and applies its answer (a paid order is credited once), then writes `order.recheck` to
 * the audit log. An unknown order is 404; a provider that cannot be asked is 500 with the method named, logged.
 */
export async function recheckTopupOrder(
  service: TopupService,
  orderId: string,
  recordAction: (action: AdminAction) => Promise<void>,
): Promise<TopupOrderRecheck> {
  const order = await service.findOrder(orderId);
  if (!order) throw new GatewayError('not_found', 'No such order.');
  let result;
  try {
    result = await service.recheck(order);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    service.options.logger.error({ err: error, orderId: order.id }, 'order re-check failed');
    throw new GatewayError(
      'server_error',
      `The payment provider (${order.method}) could not be asked about the order; try again later.`,
    );
  }
  await recordAction({
    action: 'order.recheck',
    targetType: 'order',
    targetId: order.id,
    details: {
      method: order.method,
      statusBefore: order.status,
      providerSays: result.report.outcome,
      outcome: result.outcome,
    },
  });
  const after = await service.findOrder(order.id);
  return { order: after ?? order, providerSays: result.report.outcome, outcome: result.outcome };
}
