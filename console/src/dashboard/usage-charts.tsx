import { BarChart, DonutChart } from '@mantine/charts';
import { Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMicroUnits } from '../format/format-micro-units';
import { bucketLabel } from './bucket-label';
import { modelShare, requestsPerBucket, spendByModel } from './usage-chart-data';
import type { UsagePeriod } from './usage-period';
import type { UsageRange } from './usage-range';

/** A titled chart panel; `label` names the figure for screen readers and tests. */
function ChartCard({ title, label, children }: { title: string; label: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="md" component="figure" aria-label={label} m={0}>
      <Stack gap="sm">
        <Text fw={600}>{title}</Text>
        {children}
      </Stack>
    </Card>
  );
}

/** The charts of one range: spend per day (or hour) stacked by model, requests and errors, and each model's share. */
export function UsageCharts({ period, range }: { period: UsagePeriod; range: UsageRange }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const money = (value: number) => formatMicroUnits(Math.round(value), locale);
  const label = (bucket: string) => bucketLabel(bucket, range, locale);
  const spend = spendByModel(period, t('dashboard.charts.other'));
  const spendData = spend.data.map((row) => ({ ...row, label: label(String(row.bucket)) }));
  const requests = requestsPerBucket(period).map((row) => ({ ...row, label: label(row.bucket) }));
  const share = modelShare(period, t('dashboard.charts.other'));
  const perBucket = range === '24h' ? 'hour' : 'day';
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard title={t(`dashboard.charts.spendPer.${perBucket}`)} label={t('dashboard.charts.spendLabel')}>
          {spend.series.length === 0 ? (
            <Text size="sm" c="dimmed">{t('dashboard.charts.noSpend')}</Text>
          ) : (
            <BarChart h={260} data={spendData} dataKey="label" type="stacked" series={spend.series} valueFormatter={money} withLegend legendProps={{ verticalAlign: 'bottom' }} tickLine="y" yAxisProps={{ width: 70 }} />
          )}
        </ChartCard>
        <ChartCard title={t(`dashboard.charts.requestsPer.${perBucket}`)} label={t('dashboard.charts.requestsLabel')}>
          <BarChart
            h={260}
            data={requests}
            dataKey="label"
            series={[{ name: 'requests', label: t('dashboard.charts.requests'), color: 'blue.6' }, { name: 'errors', label: t('dashboard.charts.errors'), color: 'red.6' }]}
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
            tickLine="y"
            yAxisProps={{ allowDecimals: false }}
          />
        </ChartCard>
      </SimpleGrid>
      <ChartCard title={t(`dashboard.charts.share.${share.measure}`)} label={t('dashboard.charts.shareLabel')}>
        {share.slices.length === 0 ? (
          <Text size="sm" c="dimmed">{t('dashboard.charts.noUsageInRange')}</Text>
        ) : (
          <Group gap="xl" wrap="wrap" justify="center">
            <DonutChart data={share.slices} size={180} thickness={28} valueFormatter={share.measure === 'cost' ? money : String} withTooltip tooltipDataSource="segment" />
            <Stack gap={4}>
              {share.slices.map((slice) => (
                <Group key={slice.name} gap="xs" wrap="nowrap">
                  <div style={{ width: 10, height: 10, borderRadius: 2, background: `var(--mantine-color-${slice.color.replace('.', '-')})`, flexShrink: 0 }} />
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{slice.name}</Text>
                  <Text size="sm" c="dimmed" ff="monospace">{share.measure === 'cost' ? money(slice.value) : slice.value}</Text>
                </Group>
              ))}
            </Stack>
          </Group>
        )}
      </ChartCard>
    </Stack>
  );
}
