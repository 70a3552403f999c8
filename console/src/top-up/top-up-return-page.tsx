import { Alert, Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../components/page-header';
import { formatMicroUnits } from '../format/format-micro-units';
import { OrderOutcome } from './order-outcome';
import { useOrderPolling } from './use-order-polling';

/** Where a provider sends the browser back: waits for the order to be paid, failed or expired, then shows the result. */
export function TopUpReturnPage({ order }: { order?: string }) {
  const { t, i18n } = useTranslation();
  const polling = useOrderPolling(order);
  const current = polling.order.data;
  return (
    <Stack gap="md" maw={640}>
      <PageHeader title={t('topUp.return.title')} subtitle={t('topUp.return.subtitle')} />
      {order === undefined ? (
        <Alert color="red" role="alert">{t('topUp.return.noOrder')}</Alert>
      ) : (
        <Card withBorder padding="lg">
          <Stack gap="sm">
            {current && (
              <Group gap="lg" wrap="wrap">
                <Text size="sm" c="dimmed">{t('topUp.return.order', { id: current.id })}</Text>
                <Text size="sm">{t('topUp.return.charge', { amount: `${current.amountPaid} ${current.currency.toUpperCase()}`, method: t(`topUp.methods.${current.method}`) })}</Text>
                <Text size="sm">{t('topUp.return.expectedCredit', { credit: formatMicroUnits(current.credit, i18n.language) })}</Text>
              </Group>
            )}
            <OrderOutcome polling={polling} />
          </Stack>
        </Card>
      )}
      <Anchor component={Link} to="/top-up">{t('topUp.return.backToTopUp')}</Anchor>
    </Stack>
  );
}
