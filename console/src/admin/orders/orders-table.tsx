import { Button, Stack, Table, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/format-date-time';
import { formatMicroUnits } from '../../format/format-micro-units';
import { OrderStatusBadge } from './order-status-badge';
import type { TopUpOrder } from '../../top-up/top-up-types';
import type { AdminTopUpOrder } from './orders-types';

/** The table's columns, in order. */
const orderColumns = ['createdAt', 'user', 'method', 'amountPaid', 'credit', 'status', 'providerReference', 'failureReason', 'actions'] as const;

/** Every order of the page: time, user, method, amount paid, credit and bonus, status, provider reference, failure, re-check. */
export function OrdersTable({ orders, onRecheck, recheckingOrderId }: { orders: AdminTopUpOrder[]; onRecheck: (order: TopUpOrder) => void; recheckingOrderId: string | null }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            {orderColumns.map((column) => (
              <Table.Th key={column}>{t(`orders.columns.${column}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((order) => (
            <Table.Tr key={order.id} data-testid={`order-row-${order.id}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(order.createdAt, locale)}</Table.Td>
              <Table.Td>
                {/* Who placed it by email and name; the id below on one line, never broken mid-word. */}
                <Stack gap={0}>
                  {order.user && <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{order.user.email}</Text>}
                  {order.user && order.user.displayName !== '' && <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{order.user.displayName}</Text>}
                  <Text ff="monospace" size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{order.userId}</Text>
                </Stack>
              </Table.Td>
              <Table.Td>{t(`orders.method.${order.method}`)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{order.amountPaid} {order.currency.toUpperCase()}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {formatMicroUnits(order.credit, locale)}
                {order.bonus > 0 && <Text span c="teal" size="sm"> {t('orders.plusBonus', { bonus: formatMicroUnits(order.bonus, locale) })}</Text>}
              </Table.Td>
              <Table.Td><OrderStatusBadge status={order.status} /></Table.Td>
              <Table.Td><Text ff="monospace" size="xs" style={{ whiteSpace: 'nowrap' }}>{order.providerReference ?? '—'}</Text></Table.Td>
              <Table.Td><Text size="sm" c={order.failureReason ? 'red' : 'dimmed'}>{order.failureReason ?? '—'}</Text></Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconRefresh size={14} />}
                  loading={recheckingOrderId === order.id}
                  disabled={recheckingOrderId !== null && recheckingOrderId !== order.id}
                  onClick={() => onRecheck(order)}
                  aria-label={t('orders.recheckOrder', { id: order.id })}
                >
                  {t('orders.recheck')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
