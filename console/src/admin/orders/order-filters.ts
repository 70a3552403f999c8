import type { PaymentMethod, TopUpOrderStatus } from '../../top-up/top-up-types';

/** The Orders page's filters; null (or an empty user id) means any. */
export interface OrderFilters {
  status: TopUpOrderStatus | null;
  method: PaymentMethod | null;
  userId: string;
}

/** No filter at all. */
export const noOrderFilters: OrderFilters = { status: null, method: null, userId: '' };

/** How many orders one page shows. */
export const ordersPageSize = 25;

/** The query string of GET /api/admin/orders for the filters and the page's cursor (absent on the first page). */
export function ordersQueryString(filters: OrderFilters, cursor: string | null, limit = ordersPageSize): string {
  const query = new URLSearchParams();
  if (filters.status) query.set('status', filters.status);
  if (filters.method) query.set('method', filters.method);
  const userId = filters.userId.trim();
  if (userId) query.set('user', userId);
  query.set('limit', String(limit));
  if (cursor) query.set('cursor', cursor);
  return query.toString();
}
