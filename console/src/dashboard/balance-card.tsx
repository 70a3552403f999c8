import { Alert, Anchor, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { ApiBalance } from '../api/api-types';
import { formatMicroUnits } from '../format/format-micro-units';
import { balanceOutlook, longestShownRunwayDays } from './balance-outlook';

/** The balance (total, held, available, debt), its runway at the 7-day average spend, and a low-balance alert. */
export function BalanceCard({ balance, sevenDaySpend }: { balance: ApiBalance; sevenDaySpend: number | null }) {
  const { t, i18n } = useTranslation();
  const money = (amount: number) => formatMicroUnits(amount, i18n.language);
  const outlook = balanceOutlook(balance, sevenDaySpend ?? 0);
  const figures = [
    { label: t('dashboard.balance.available'), value: money(balance.available), strong: true },
    { label: t('dashboard.balance.balance'), value: money(balance.balance), strong: false },
    { label: t('dashboard.balance.held'), value: money(balance.held), strong: false },
    { label: t('dashboard.balance.debt'), value: money(balance.debt), strong: false },
  ];
  let runway: string | null = null;
  if (sevenDaySpend !== null) {
    if (outlook.runwayDays === null) runway = t('dashboard.balance.noRunway');
    else if (outlook.runwayDays > longestShownRunwayDays) runway = t('dashboard.balance.runwayOverAYear');
    else runway = t('dashboard.balance.runway', { count: outlook.runwayDays });
  }
  return (
    <Card withBorder padding="md" aria-label={t('dashboard.balance.title')} component="section">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600}>{t('dashboard.balance.title')}</Text>
          <Anchor component={Link} to="/top-up" size="sm">{t('dashboard.balance.topUp')}</Anchor>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          {figures.map((figure) => (
            <div key={figure.label}>
              <Text size="xs" c="dimmed">{figure.label}</Text>
              <Text size={figure.strong ? 'xl' : 'md'} fw={figure.strong ? 700 : 500} ff="monospace" style={{ overflowWrap: 'anywhere' }}>{figure.value}</Text>
            </div>
          ))}
        </SimpleGrid>
        {runway && <Text size="sm" c="dimmed">{runway}</Text>}
        {outlook.low && (
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('dashboard.balance.lowTitle')}>
            <Text size="sm">
              {balance.debt > 0 ? t('dashboard.balance.lowDebt') : t('dashboard.balance.lowBody')}{' '}
              <Anchor component={Link} to="/top-up" size="sm">{t('dashboard.balance.lowAction')}</Anchor>
            </Text>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
