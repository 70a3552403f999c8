import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../api/api-error';
import { currentSessionQueryKey } from '../api/use-current-session';
import { requestApi } from '../api/request-api';
import { isFinalStatus } from './order-status';
import type { TopUpOrder } from './top-up-types';

/** How often an order is asked about, and for how long before the page says it is still pending. */
export const orderPollPolicy = { intervalMs: 2_000, limitMs: 5 * 60_000 } as const;

/** The query key of the caller's order history. */
export const topUpOrdersQueryKey = ['topup-orders'] as const;
/** The query key of the caller's ledger. */
export const ledgerQueryKey = ['ledger'] as const;

/**
 * Polls GET /api/topup/orders/:id until the order is paid, failed or expired, or until the time limit passes
 * (`gaveUp`); then refreshes the balance, order history and ledger. `progress` is the share of the limit used (0-100).
 */
export function useOrderPolling(orderId: string | undefined) {
  const queryClient = useQueryClient();
  const [startedAt, setStartedAt] = useState(() => Date.now());
  const [gaveUp, setGaveUp] = useState(false);
  const order = useQuery({
    queryKey: ['topup-order', orderId],
    enabled: orderId !== undefined,
    queryFn: () => requestApi<TopUpOrder>('GET', `/topup/orders/${encodeURIComponent(orderId ?? '')}`),
    staleTime: 0,
    refetchInterval: (query) => (gaveUp || (query.state.data && isFinalStatus(query.state.data.status)) || isClientError(query.state.error) ? false : orderPollPolicy.intervalMs),
  });
  const finalStatus = order.data && isFinalStatus(order.data.status) ? order.data.status : null;

  useEffect(() => {
    if (orderId === undefined || finalStatus !== null) return;
    const timer = setTimeout(() => setGaveUp(true), Math.max(0, orderPollPolicy.limitMs - (Date.now() - startedAt)));
    return () => clearTimeout(timer);
  }, [orderId, startedAt, finalStatus]);

  useEffect(() => {
    if (finalStatus === null) return;
    void queryClient.invalidateQueries({ queryKey: currentSessionQueryKey });
    void queryClient.invalidateQueries({ queryKey: topUpOrdersQueryKey });
    void queryClient.invalidateQueries({ queryKey: ledgerQueryKey });
  }, [finalStatus, queryClient]);

  const progress = Math.min(100, Math.max(0, ((order.dataUpdatedAt || startedAt) - startedAt) / orderPollPolicy.limitMs) * 100);
  return {
    order,
    gaveUp: gaveUp && finalStatus === null,
    progress,
    /** asks again for another full period */
    restart() {
      setStartedAt(Date.now());
      setGaveUp(false);
      void order.refetch();
    },
  };
}

/** A 4xx answer (no such order, signed out): asking again will not help. */
function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}
