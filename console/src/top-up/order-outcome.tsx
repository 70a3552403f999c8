import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../api/use-current-session';
import { ErrorState, LoadingState } from '../components/query-state';
import { formatDateTime } from '../format/format-date-time';
import { formatMicroUnits } from '../format/format-micro-units';
import type { TopUpOrder } from './top-up-types';
import type { useOrderPolling } from './use-order-polling';

/** What a polled order shows: progress while pending, then the order's own result (credit, bonus, when paid) and the current balance. */
export function OrderOutcome({ polling }: { polling: ReturnType<typeof useOrderPolling> }) {
  const { t } = useTranslation();
  const { order, gaveUp, progress, restart } = polling;
  if (order.isPending) return <LoadingState />;
  if (order.isError && !order.data) return <ErrorState error={order.error} onRetry={restart} />;
  const current = order.data;
  if (!current) return <LoadingState />;
  if (current.status === 'pending') {
    if (gaveUp) {
      return (
        <Alert color="yellow" icon={<IconClockHour4 size={18} />} title={t('topUp.outcome.stillPendingTitle')} role="status">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('topUp.outcome.stillPending')}</Text>
            <Button size="xs" variant="light" onClick={restart}>{t('topUp.outcome.checkAgain')}</Button>
          </Stack>
        </Alert>
      );
    }
    return (
      <Stack gap="xs" role="status" aria-live="polite">
        <Text size="sm">{t('topUp.outcome.waiting', { method: t(`topUp.methods.${current.method}`) })}</Text>
        <Progress value={Math.max(progress, 3)} striped animated aria-label={t('topUp.outcome.waitingProgress')} />
      </Stack>
    );
  }
  return <FinalOutcome order={current} />;
}

function FinalOutcome({ order }: { order: TopUpOrder }) {
  const { t, i18n } = useTranslation();
  const session = useCurrentSession();
  const money = (amount: number) => formatMicroUnits(amount, i18n.language);
  switch (order.status) {
    case 'paid':
    case 'partially-refunded':
    case 'refunded':
    case 'disputed':
      return (
        <Alert color="teal" icon={<IconCircleCheck size={18} />} title={t(`topUp.outcome.${order.status}Title`)}>
          <Stack gap={4}>
            <Group gap="xs"><Text size="sm">{t('topUp.outcome.credited')}</Text><Text size="sm" fw={700}>{money(order.credit)}</Text></Group>
            {order.bonus > 0 && <Group gap="xs"><Text size="sm">{t('topUp.outcome.bonus')}</Text><Text size="sm" fw={700}>{money(order.bonus)}</Text></Group>}
            {order.paidAt !== null && <Group gap="xs"><Text size="sm">{t('topUp.outcome.paidAt')}</Text><Text size="sm" data-testid="order-paid-at">{formatDateTime(order.paidAt, i18n.language)}</Text></Group>}
            {/* Today's balance, not this order's result: a return page opened again days later must not call it new. */}
            {session.data?.balance && <Group gap="xs"><Text size="sm">{t('topUp.outcome.currentBalance')}</Text><Text size="sm" fw={700} data-testid="current-balance">{money(session.data.balance.balance)}</Text></Group>}
          </Stack>
        </Alert>
      );
    case 'failed':
      return (
        <Alert color="red" icon={<IconX size={18} />} title={t('topUp.outcome.failedTitle')} role="alert">
          {order.failureReason ?? t('topUp.outcome.failed')}
        </Alert>
      );
    case 'expired':
      return <Alert color="gray" icon={<IconClockHour4 size={18} />} title={t('topUp.outcome.expiredTitle')}>{t('topUp.outcome.expired')}</Alert>;
    case 'pending':
      return null;
    default: {
      const unexpected: never = order.status;
      return unexpected;
    }
  }
}
