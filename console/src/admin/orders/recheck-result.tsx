import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMicroUnits } from '../../format/format-micro-units';
import { OrderStatusBadge } from './order-status-badge';
import type { RecheckAnswer, RecheckOutcome } from './orders-types';

/** The alert color of what a re-check did. */
export function recheckOutcomeColor(outcome: RecheckOutcome): string {
  switch (outcome) {
    case 'credited':
      return 'teal';
    case 'unchanged':
    case 'pending':
      return 'blue';
    case 'failed':
    case 'expired':
      return 'gray';
    case 'amount-mismatch':
    case 'unknown-order':
      return 'red';
    default: {
      const unknown: never = outcome;
      return String(unknown);
    }
  }
}

/** What the provider said about a re-checked order, what the gateway did, and the order as it is now. */
export function RecheckResult({ answer, onClose }: { answer: RecheckAnswer; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { order } = answer;
  return (
    <Stack gap="sm" data-testid="recheck-result">
      <Alert color={recheckOutcomeColor(answer.outcome)} title={t(`orders.outcome.${answer.outcome}`)}>
        {t('orders.recheckResult.providerSays', { method: t(`orders.method.${order.method}`), verdict: t(`orders.verdict.${answer.providerSays}`) })}
      </Alert>
      <Table variant="vertical" layout="fixed" withTableBorder>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={140}>{t('orders.recheckResult.order')}</Table.Th>
            <Table.Td><Text ff="monospace" size="xs" style={{ wordBreak: 'break-all' }}>{order.id}</Text></Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('orders.columns.status')}</Table.Th>
            <Table.Td><OrderStatusBadge status={order.status} /></Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('orders.columns.amountPaid')}</Table.Th>
            <Table.Td>{order.amountPaid} {order.currency.toUpperCase()}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('orders.columns.credit')}</Table.Th>
            <Table.Td>{formatMicroUnits(order.credit, i18n.language)} {order.bonus > 0 ? t('orders.plusBonus', { bonus: formatMicroUnits(order.bonus, i18n.language) }) : ''}</Table.Td>
          </Table.Tr>
          {order.failureReason && (
            <Table.Tr>
              <Table.Th>{t('orders.columns.failureReason')}</Table.Th>
              <Table.Td>{order.failureReason}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end">
        <Button onClick={onClose}>{t('orders.recheckResult.close')}</Button>
      </Group>
    </Stack>
  );
}
