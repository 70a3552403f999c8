import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OrderStatus } from './orders-types';

/** The badge color of an order status. */
export function orderStatusColor(status: OrderStatus): string {
  switch (status) {
    case 'pending':
      return 'yellow';
    case 'paid':
      return 'teal';
    case 'failed':
      return 'red';
    case 'expired':
      return 'gray';
    case 'refunded':
      return 'blue';
    default: {
      const unknown: never = status;
      return String(unknown);
    }
  }
}

/** An order's status as a colored badge. */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={orderStatusColor(status)} variant="light" style={{ minWidth: 'max-content' }}>
      {t(`orders.status.${status}`)}
    </Badge>
  );
}
