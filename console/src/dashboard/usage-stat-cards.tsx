import { Card, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMicroUnits } from '../format/format-micro-units';
import type { PeriodTotals } from './usage-period';
import { usageRanges, type UsageRange } from './usage-range';

/** Spend and requests (with errors) for 24 hours, 7 days and 30 days side by side. */
export function UsageStatCards({ totals }: { totals: Record<UsageRange, PeriodTotals> }) {
  const { t, i18n } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
      {usageRanges.map((range) => (
        <Card key={range} withBorder padding="md" component="section" aria-label={t(`dashboard.ranges.${range}`)}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{t(`dashboard.ranges.${range}`)}</Text>
          <Text size="xl" fw={700} ff="monospace" data-testid={`spend-${range}`}>{formatMicroUnits(totals[range].cost, i18n.language)}</Text>
          <Text size="sm" c="dimmed" data-testid={`requests-${range}`}>
            {t('dashboard.stats.requests', { count: totals[range].requestCount })}
            {totals[range].errorCount > 0 ? ` · ${t('dashboard.stats.errors', { count: totals[range].errorCount })}` : ''}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
