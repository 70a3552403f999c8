import { Badge, Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { PageHeader } from '../../components/page-header';
import { ErrorState, LoadingState } from '../../components/query-state';
import { formatDateTime } from '../../format/format-date-time';
import { outcomeColor } from './outcome-color';
import { paymentModeLabel } from './payment-mode-label';
import type { AdminStatus, PaymentStatus } from './status-types';

/** The read-only Status page: configured sign-in and payment providers, the public URL, and each provider's last webhook. */
export function StatusPage() {
  const { t } = useTranslation();
  const status = useQuery({ queryKey: ['admin', 'status'], queryFn: () => requestApi<AdminStatus>('GET', '/admin/status') });

  let content;
  if (status.isPending) content = <LoadingState />;
  else if (status.isError) content = <ErrorState error={status.error} onRetry={() => void status.refetch()} />;
  else content = <StatusReport status={status.data} />;

  return (
    <Stack gap="md">
      <PageHeader title={t('status.title')} subtitle={t('status.subtitle')} />
      {content}
    </Stack>
  );
}

function StatusReport({ status }: { status: AdminStatus }) {
  const { t } = useTranslation();
  const { signIn } = status;
  return (
    <Stack gap="md">
      <StatusCard id="public-url" title={t('status.publicUrl.title')}>
        {status.publicUrl ? <Code style={{ overflowWrap: 'anywhere' }}>{status.publicUrl}</Code> : <Text size="sm" c="dimmed">{t('status.publicUrl.unset')}</Text>}
      </StatusCard>
      <StatusCard id="sign-in" title={t('status.signIn.title')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <ProviderLine name={t('status.signIn.password')} configured={signIn.password} detail={null} />
          <ProviderLine name="GitHub" configured={signIn.github.configured} detail={signIn.github.host} />
          <ProviderLine name={signIn.oidc.name ?? t('status.signIn.oidc')} configured={signIn.oidc.configured} detail={signIn.oidc.issuerHost ? t('status.signIn.issuer', { host: signIn.oidc.issuerHost }) : null} />
        </SimpleGrid>
      </StatusCard>
      <StatusCard id="payments" title={t('status.payments.title')}>
        <PaymentsTable payments={status.payments} />
      </StatusCard>
    </Stack>
  );
}

function StatusCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`status-${id}-title`}>
      <Stack gap="sm">
        <Title order={3} size="h4" id={`status-${id}-title`}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  );
}

function ProviderLine({ name, configured, detail }: { name: string; configured: boolean; detail: string | null }) {
  return (
    <Group gap="xs" wrap="wrap" data-testid={`provider-${name}`}>
      <Text fw={600}>{name}</Text>
      <ConfiguredBadge configured={configured} />
      {detail && <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{detail}</Text>}
    </Group>
  );
}

function ConfiguredBadge({ configured }: { configured: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={configured ? 'teal' : 'gray'} style={{ minWidth: 'max-content' }}>
      {configured ? t('status.configured') : t('status.notConfigured')}
    </Badge>
  );
}

function PaymentsTable({ payments }: { payments: PaymentStatus[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            {(['method', 'state', 'mode', 'lastWebhook', 'verified', 'outcome', 'order'] as const).map((column) => (
              <Table.Th key={column}>{t(`status.payments.columns.${column}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payments.map((payment) => {
            const delivery = payment.lastDelivery;
            return (
              <Table.Tr key={payment.method} data-testid={`payment-${payment.method}`}>
                <Table.Td fw={600}>{t(`status.payments.methods.${payment.method}`)}</Table.Td>
                <Table.Td><ConfiguredBadge configured={payment.configured} /></Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{payment.configured ? `${paymentModeLabel(payment, t)}${payment.currency ? ` · ${payment.currency.toUpperCase()}` : ''}` : '—'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{delivery ? formatDateTime(delivery.receivedAt, i18n.language) : t('status.payments.noWebhook')}</Table.Td>
                <Table.Td>
                  {delivery && (
                    <Badge variant="light" color={delivery.verified ? 'teal' : 'red'} style={{ minWidth: 'max-content' }}>
                      {delivery.verified ? t('status.payments.verified') : t('status.payments.notVerified')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  {delivery && (
                    <Badge variant="light" color={outcomeColor(delivery.outcome)} style={{ minWidth: 'max-content' }}>
                      {t(`status.outcomes.${delivery.outcome}`)}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td><Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>{delivery?.orderId ?? '—'}</Text></Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
