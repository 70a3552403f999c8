import { Button, Group, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { noRedemptionCodeFilters, type RedemptionCodeFilters } from './redemption-code-filters';
import { redemptionCodeStatuses, type RedemptionCodeStatus } from './redemption-codes-types';

/** The status and batch filters of the code list. */
export function RedemptionCodeFilterBar({ filters, onChange }: { filters: RedemptionCodeFilters; onChange: (filters: RedemptionCodeFilters) => void }) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label={t('redemptionCodes.filters.status')}
        placeholder={t('redemptionCodes.filters.any')}
        clearable
        w={160}
        comboboxProps={{ withinPortal: true }}
        data={redemptionCodeStatuses.map((status) => ({ value: status, label: t(`redemptionCodes.status.${status}`) }))}
        value={filters.status}
        onChange={(value) => onChange({ ...filters, status: value as RedemptionCodeStatus | null })}
      />
      <TextInput
        label={t('redemptionCodes.filters.batch')}
        placeholder={t('redemptionCodes.filters.batchPlaceholder')}
        w={260}
        value={filters.batchId}
        onChange={(event) => onChange({ ...filters, batchId: event.currentTarget.value })}
      />
      <Button variant="subtle" onClick={() => onChange(noRedemptionCodeFilters)} disabled={filters.status === null && filters.batchId === ''}>
        {t('redemptionCodes.filters.clear')}
      </Button>
    </Group>
  );
}
