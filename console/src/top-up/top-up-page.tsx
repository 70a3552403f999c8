import { Alert, Card, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/api-error';
import { requestApi } from '../api/request-api';
import { useCurrentSession } from '../api/use-current-session';
import { PageHeader } from '../components/page-header';
import { ErrorState, LoadingState } from '../components/query-state';
import { formatMicroUnits } from '../format/format-micro-units';
import { OrderHistory } from './order-history';
import { QrPaymentPanel } from './qr-payment-panel';
import { RedeemCodeForm } from './redeem-code-form';
import { TopUpForm } from './top-up-form';
import type { TopUpOptions, TopUpOrder } from './top-up-types';

/** The top-up page: balance, pay by Stripe or Alipay with the bonus shown first, redeem a code, order history. */
export function TopUpPage() {
  const { t, i18n } = useTranslation();
  const session = useCurrentSession();
  const options = useQuery({ queryKey: ['topup-options'], queryFn: () => requestApi<TopUpOptions>('GET', '/topup/options') });
  const [qrOrder, setQrOrder] = useState<{ order: TopUpOrder; qrCode: string } | null>(null);
  const balance = session.data?.balance;
  // A gateway without top-up answers 404; redemption codes still work there.
  const notConfigured = (options.isError && options.error instanceof ApiError && options.error.status === 404) || options.data?.methods.length === 0;

  let payment;
  if (options.isPending) payment = <LoadingState />;
  else if (notConfigured) payment = <Alert color="gray" icon={<IconInfoCircle size={18} />}>{t('topUp.notConfigured')}</Alert>;
  else if (options.isError) payment = <ErrorState error={options.error} onRetry={() => void options.refetch()} />;
  else payment = <TopUpForm options={options.data} onQrOrder={(order, qrCode) => setQrOrder({ order, qrCode })} />;

  return (
    <Stack gap="md">
      <PageHeader title={t('topUp.title')} subtitle={t('topUp.subtitle')} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap="md">
          <Card withBorder padding="lg">
            <Text size="sm" c="dimmed">{t('topUp.balance')}</Text>
            <Text size="xl" fw={700} data-testid="balance">{balance ? formatMicroUnits(balance.balance, i18n.language) : '—'}</Text>
            {balance && balance.debt > 0 && <Text size="sm" c="red">{t('topUp.debt', { debt: formatMicroUnits(balance.debt, i18n.language) })}</Text>}
          </Card>
          <Card withBorder padding="lg">
            <Title order={4} mb="sm">{t('topUp.form.title')}</Title>
            {payment}
          </Card>
        </Stack>
        <Card withBorder padding="lg" style={{ alignSelf: 'start' }}>
          <Title order={4} mb="sm">{t('topUp.redeem.title')}</Title>
          <RedeemCodeForm />
        </Card>
      </SimpleGrid>
      {!notConfigured && (
        <Card withBorder padding="lg">
          <Group justify="space-between" mb="sm"><Title order={4}>{t('topUp.history.title')}</Title></Group>
          <OrderHistory />
        </Card>
      )}
      <Modal opened={qrOrder !== null} onClose={() => setQrOrder(null)} title={t('topUp.qr.title')} closeOnClickOutside={false}>
        {qrOrder && <QrPaymentPanel order={qrOrder.order} qrCode={qrOrder.qrCode} onDone={() => setQrOrder(null)} />}
      </Modal>
    </Stack>
  );
}
