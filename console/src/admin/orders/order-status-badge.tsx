import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { orderStatusColor } from '../../top-up/order-status';
import type { TopUpOrderStatus } from '../../top-up/top-up-types';

/** An order's status as a colored badge. */
export function OrderStatusBadge({ status }: { status: TopUpOrderStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={orderStatusColor(status)} variant="light" style={{ minWidth: 'max-content' }}>
      {t(`orders.status.${status}`)}
    </Badge>
  );
}
