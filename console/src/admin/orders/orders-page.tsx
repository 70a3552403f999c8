import { Modal, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { CursorPager } from '../../components/cursor-pager';
import { OrderFilterBar } from './order-filter-bar';
import { noOrderFilters, ordersQueryString, type OrderFilters } from './order-filters';
import { OrdersTable } from './orders-table';
import type { CursorPage } from '../../api/api-types';
import type { TopUpOrder } from '../../top-up/top-up-types';
import type { AdminTopUpOrder, RecheckAnswer } from './orders-types';
import { RecheckResult } from './recheck-result';
import { useCursorPaging } from '../../api/use-cursor-paging';

/** The query key prefix of the admin order lists. */
const ordersQueryKey = ['admin-orders'] as const;

/** The admin Orders page: every top-up order with filters and paging, and a re-check with the provider. */
export function OrdersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<OrderFilters>(noOrderFilters);
  const [debouncedUserId] = useDebouncedValue(filters.userId, 300);
  const applied: OrderFilters = { ...filters, userId: debouncedUserId };
  const filterKey = ordersQueryString(applied, null);
  const paging = useCursorPaging(filterKey);
  const [recheckAnswer, setRecheckAnswer] = useState<RecheckAnswer | null>(null);

  const orders = useQuery({
    queryKey: [...ordersQueryKey, filterKey, paging.cursor],
    queryFn: () => requestApi<CursorPage<AdminTopUpOrder>>('GET', `/admin/orders?${ordersQueryString(applied, paging.cursor)}`),
    placeholderData: keepPreviousData,
  });

  const recheck = useMutation({
    mutationFn: (order: TopUpOrder) => requestApi<RecheckAnswer>('POST', `/admin/orders/${encodeURIComponent(order.id)}/recheck`),
    onSuccess: (answer) => {
      setRecheckAnswer(answer);
      notifications.show({ color: 'teal', message: t('orders.rechecked', { outcome: t(`orders.outcome.${answer.outcome}`) }) });
    },
    onError: (error) => notifications.show({ color: 'red', title: t('orders.recheckFailed'), message: error.message }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ordersQueryKey }),
  });

  let content;
  if (orders.isPending) content = <LoadingState />;
  else if (orders.isError) content = <ErrorState error={orders.error} onRetry={() => void orders.refetch()} />;
  else if (orders.data.data.length === 0) content = <EmptyState title={t('orders.empty')} hint={t('orders.emptyHint')} />;
  else {
    content = (
      <Stack gap="sm">
        <OrdersTable orders={orders.data.data} onRecheck={(order) => recheck.mutate(order)} recheckingOrderId={recheck.isPending ? (recheck.variables?.id ?? null) : null} />
        <CursorPager
          paging={paging}
          nextCursor={orders.data.nextCursor}
          loading={orders.isFetching}
          labels={{ previous: t('orders.pager.previous'), next: t('orders.pager.next'), page: t('orders.pager.page', { page: paging.pageNumber }) }}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <PageHeader title={t('orders.title')} subtitle={t('orders.subtitle')} />
      <OrderFilterBar filters={filters} onChange={setFilters} />
      {content}
      <Modal opened={recheckAnswer !== null} onClose={() => setRecheckAnswer(null)} title={t('orders.recheckResult.title')} size="lg">
        {recheckAnswer && <RecheckResult answer={recheckAnswer} onClose={() => setRecheckAnswer(null)} />}
      </Modal>
    </Stack>
  );
}
