import { Badge, Button, Center, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../components/query-state';
import { formatDateTime } from '../format/format-date-time';
import { formatMicroUnits } from '../format/format-micro-units';
import { useCursorList } from '../api/use-cursor-list';
import { orderStatusColor } from './order-status';
import type { TopUpOrder } from './top-up-types';
import { topUpOrdersQueryKey } from './use-order-polling';

/** Orders read per page. */
const pageSize = 10;

/** The caller's top-up orders, newest first, page by page. */
export function OrderHistory() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const orders = useCursorList<TopUpOrder>(topUpOrdersQueryKey, '/topup/orders', pageSize);
  if (orders.isPending) return <LoadingState />;
  if (orders.isError) return <ErrorState error={orders.error} onRetry={() => void orders.refetch()} />;
  if (orders.rows.length === 0) return <EmptyState title={t('topUp.history.empty')} hint={t('topUp.history.emptyHint')} />;
  return (
    <>
      <Table.ScrollContainer minWidth={760}>
        <Table striped verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              {(['created', 'method', 'status', 'paid', 'credit', 'bonus', 'reference'] as const).map((column) => (
                <Table.Th key={column} style={{ whiteSpace: 'nowrap' }}>{t(`topUp.history.columns.${column}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orders.rows.map((order) => (
              <Table.Tr key={order.id} data-testid={`order-row-${order.id}`}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(order.createdAt, locale)}</Table.Td>
                <Table.Td>{t(`topUp.methods.${order.method}`)}</Table.Td>
                <Table.Td>
                  <Badge color={orderStatusColor(order.status)} variant="light" style={{ minWidth: 'max-content' }}>{t(`topUp.status.${order.status}`)}</Badge>
                  {order.failureReason && <Text size="xs" c="dimmed">{order.failureReason}</Text>}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{order.amountPaid} {order.currency.toUpperCase()}</Table.Td>
                <Table.Td>{formatMicroUnits(order.credit, locale)}</Table.Td>
                <Table.Td>{order.bonus > 0 ? formatMicroUnits(order.bonus, locale) : '—'}</Table.Td>
                <Table.Td><Text size="xs" ff="monospace">{order.providerReference ?? order.id}</Text></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {orders.hasNextPage && (
        <Center mt="sm">
          <Button variant="default" size="xs" loading={orders.isFetchingNextPage} onClick={() => void orders.fetchNextPage()}>{t('topUp.history.more')}</Button>
        </Center>
      )}
    </>
  );
}
