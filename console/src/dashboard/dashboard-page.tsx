import { Button, Card, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKey, DataList } from '../api/api-types';
import { requestApi } from '../api/request-api';
import { useCurrentSession } from '../api/use-current-session';
import { PageHeader } from '../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../components/query-state';
import { BalanceCard } from './balance-card';
import { KeyUsageTable } from './key-usage-table';
import { UsageCharts } from './usage-charts';
import { dailyPeriod, hourlyPeriod, periodTotals, type UsagePeriod } from './usage-period';
import { daysOfRange, lastUtcDays, usageRanges, type UsageRange } from './usage-range';
import { UsageStatCards } from './usage-stat-cards';
import { useDashboardUsage } from './use-dashboard-usage';

/** The dashboard: balance and runway, spend and requests for 24 h / 7 d / 30 d, usage charts and a per-key table. */
export function DashboardPage() {
  const { t } = useTranslation();
  const [range, setRange] = useState<UsageRange>('7d');
  const session = useCurrentSession();
  const { daily, hourly } = useDashboardUsage();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => requestApi<DataList<ApiKey>>('GET', '/keys'), enabled: session.data?.user != null });
  const balance = session.data?.balance ?? null;

  let periods: Record<UsageRange, UsagePeriod> | null = null;
  if (daily.data && hourly.data) {
    const now = Date.now();
    periods = {
      '24h': hourlyPeriod(hourly.data),
      '7d': dailyPeriod(daily.data, lastUtcDays(daysOfRange('7d'), now)),
      '30d': dailyPeriod(daily.data, lastUtcDays(daysOfRange('30d'), now)),
    };
  }

  let content;
  if (daily.isError) content = <ErrorState error={daily.error} onRetry={() => void daily.refetch()} />;
  else if (hourly.isError) content = <ErrorState error={hourly.error} onRetry={() => void hourly.refetch()} />;
  else if (!periods) content = <LoadingState />;
  else if (periods['30d'].rows.length === 0 && periods['24h'].rows.length === 0) {
    content = (
      <Card withBorder>
        <EmptyState
          title={t('dashboard.empty.title')}
          hint={t('dashboard.empty.hint')}
          action={<Button component={Link} to="/keys" variant="light">{t('dashboard.empty.action')}</Button>}
        />
      </Card>
    );
  } else {
    const chosen = periods[range];
    content = (
      <>
        <UsageStatCards totals={{ '24h': periodTotals(periods['24h']), '7d': periodTotals(periods['7d']), '30d': periodTotals(periods['30d']) }} />
        <SegmentedControl
          aria-label={t('dashboard.rangeLabel')}
          value={range}
          onChange={(value) => setRange(value as UsageRange)}
          data={usageRanges.map((value) => ({ value, label: t(`dashboard.ranges.${value}`) }))}
          style={{ alignSelf: 'flex-start' }}
        />
        <UsageCharts period={chosen} range={range} />
        <Card withBorder padding="md" component="section" aria-label={t('dashboard.keys.title')}>
          <Stack gap="sm">
            <Text fw={600}>{t('dashboard.keys.title')}</Text>
            {keys.isError ? <ErrorState error={keys.error} onRetry={() => void keys.refetch()} /> : <KeyUsageTable period={chosen} keys={keys.data?.data ?? []} />}
          </Stack>
        </Card>
      </>
    );
  }

  const sevenDaySpend = periods ? periodTotals(periods['7d']).cost : null;
  return (
    <Stack gap="md">
      <PageHeader title={t('dashboard.title')} subtitle={t('dashboard.subtitle')} />
      {balance && <BalanceCard balance={balance} sevenDaySpend={sevenDaySpend} />}
      {content}
    </Stack>
  );
}
