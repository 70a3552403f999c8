import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiKey } from '../api/api-types';
import { formatDateTime } from '../format/format-date-time';
import { formatMicroUnits } from '../format/format-micro-units';
import { usageByKey } from './usage-chart-data';
import type { UsagePeriod } from './usage-period';

/** Per key for the chosen range: spend, requests, errors, and when the key was last used. */
export function KeyUsageTable({ period, keys }: { period: UsagePeriod; keys: ApiKey[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const keysById = new Map(keys.map((key) => [key.id, key]));
  const usage = usageByKey(period);
  if (usage.length === 0) return <Text size="sm" c="dimmed">{t('dashboard.charts.noUsageInRange')}</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped verticalSpacing="xs" aria-label={t('dashboard.keys.title')}>
        <Table.Thead>
          <Table.Tr>
            {(['key', 'spend', 'requests', 'errors', 'lastUsed'] as const).map((column) => (
              <Table.Th key={column}>{t(`dashboard.keys.columns.${column}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {usage.map((row) => {
            const key = keysById.get(row.apiKeyId);
            return (
              <Table.Tr key={row.apiKeyId}>
                <Table.Td>
                  <Text size="sm" fw={600}>{key?.name ?? t('dashboard.keys.deletedKey')}</Text>
                  <Text size="xs" c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }}>{key ? `${key.keyPrefix}…` : row.apiKeyId}</Text>
                </Table.Td>
                <Table.Td ff="monospace">{formatMicroUnits(row.cost, locale)}</Table.Td>
                <Table.Td>{row.requestCount}</Table.Td>
                <Table.Td>{row.errorCount}</Table.Td>
                <Table.Td>{key?.lastUsedAt ? formatDateTime(key.lastUsedAt, locale) : t('dashboard.keys.never')}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
