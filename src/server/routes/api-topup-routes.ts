import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { recheckTopupOrder } from '../../accounts/payments/recheck-topup-order.js';
import type { TopupService } from '../../accounts/payments/topup-service.js';
import { GatewayError } from '../../core/gateway-error.js';
import { requireAdmin, requireUser } from '../api/authenticate-api-caller.js';
import { parseApiInput } from '../api/parse-api-input.js';
import { encodeCursor, parseCursor } from '../api/present-api-records.js';
import { presentTopupOrder } from '../api/present-topup-order.js';
import { recordAdminAction } from '../api/record-admin-action.js';
import type { ApiRouteContext } from './api-routes.js';

const methodSchema = z.enum(['stripe', 'alipay']);
const createOrderSchema = z.object({
  method: methodSchema,
  /** currency units of the balance, as a decimal string or a number */
  amount: z.union([z.string().max(40), z.number().positive()]),
});
const pageSchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().optional(),
});
const adminFilterSchema = pageSchema.extend({
  status: z.enum(['pending', 'paid', 'failed', 'expired', 'partially-refunded', 'refunded', 'disputed']).optional(),
  method: methodSchema.optional(),
  user: z.string().max(200).optional(),
});

/** Top-up options and orders for users; order lists and provider re-checks for admins. */
export function registerApiTopupRoutes(app: FastifyInstance, { api }: ApiRouteContext): void {
  const { gatewayStore } = api;
  const topup = (): TopupService => {
    if (!api.topup) throw new GatewayError('not_found', 'Top-up is not set up on this gateway.');
    return api.topup;
  };

  app.get('/topup/options', async (request) => topup().topupOptions(request.apiCaller.user?.id));

  app.post('/topup/orders', async (request, reply) => {
    const user = requireUser(request.apiCaller);
    const input = parseApiInput(createOrderSchema, request.body);
    const { order, instruction } = await topup().createOrder(user.id, input.method, input.amount, request.ip);
    void reply.code(201);
    return instruction.kind === 'redirect'
      ? { order: presentTopupOrder(order), redirectUrl: instruction.redirectUrl }
      : { order: presentTopupOrder(order), qrCode: instruction.qrCode };
  });

  app.get('/topup/orders', async (request) => {
    const user = requireUser(request.apiCaller);
    const page = parseApiInput(pageSchema, request.query);
    const orders = await topup().listOrders({ userId: user.id, limit: page.limit, before: parseCursor(page.cursor) });
    return { data: orders.map(presentTopupOrder), nextCursor: encodeCursor(orders, page.limit) };
  });

  app.get<{ Params: { orderId: string } }>('/topup/orders/:orderId', async (request) => {
    const order = await topup().findOrder(request.params.orderId);
    const caller = request.apiCaller;
    if (!order || (!caller.isAdmin && caller.user?.id !== order.userId))
      throw new GatewayError('not_found', 'No such order.');
    return presentTopupOrder(order);
  });

  app.get('/admin/orders', async (request) => {
    requireAdmin(request.apiCaller);
    const filter = parseApiInput(adminFilterSchema, request.query);
    const orders = await topup().listOrders({
      userId: filter.user,
      status: filter.status,
      method: filter.method,
      limit: filter.limit,
      before: parseCursor(filter.cursor),
    });
    // Who placed each order, so the console shows an email and name instead of a raw user id.
    const owners = new Map<string, { email: string; displayName: string } | null>();
    for (const userId of new Set(orders.map((order) => order.userId))) {
      const owner = await api.billing.store.findUserById(userId);
      owners.set(userId, owner ? { email: owner.email, displayName: owner.displayName } : null);
    }
    return {
      data: orders.map((order) => ({ ...presentTopupOrder(order), user: owners.get(order.userId) ?? null })),
      nextCursor: encodeCursor(orders, filter.limit),
    };
  });

  app.post<{ Params: { orderId: string } }>('/admin/orders/:orderId/recheck', async (request) => {
    requireAdmin(request.apiCaller);
    const result = await recheckTopupOrder(topup(), request.params.orderId, (action) =>
      recordAdminAction(gatewayStore, request.apiCaller, action),
    );
    return { ...result, order: presentTopupOrder(result.order) };
  });
}
