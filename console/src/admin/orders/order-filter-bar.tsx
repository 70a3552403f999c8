import { Button, Group, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { noOrderFilters, type OrderFilters } from './order-filters';
import type { PaymentMethod, TopUpOrderStatus } from '../../top-up/top-up-types';
import { orderStatuses, paymentMethods } from './orders-types';

/** The status, method and user id filters of the Orders page. */
export function OrderFilterBar({ filters, onChange }: { filters: OrderFilters; onChange: (filters: OrderFilters) => void }) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label={t('orders.filters.status')}
        placeholder={t('orders.filters.any')}
        clearable
        w={160}
        comboboxProps={{ withinPortal: true }}
        data={orderStatuses.map((status) => ({ value: status, label: t(`orders.status.${status}`) }))}
        value={filters.status}
        onChange={(value) => onChange({ ...filters, status: value as TopUpOrderStatus | null })}
      />
      <Select
        label={t('orders.filters.method')}
        placeholder={t('orders.filters.any')}
        clearable
        w={160}
        comboboxProps={{ withinPortal: true }}
        data={paymentMethods.map((method) => ({ value: method, label: t(`orders.method.${method}`) }))}
        value={filters.method}
        onChange={(value) => onChange({ ...filters, method: value as PaymentMethod | null })}
      />
      <TextInput label={t('orders.filters.userId')} placeholder={t('orders.filters.userIdPlaceholder')} w={240} value={filters.userId} onChange={(event) => onChange({ ...filters, userId: event.currentTarget.value })} />
      <Button variant="subtle" onClick={() => onChange(noOrderFilters)} disabled={filters.status === null && filters.method === null && filters.userId === ''}>
        {t('orders.filters.clear')}
      </Button>
    </Group>
  );
}
