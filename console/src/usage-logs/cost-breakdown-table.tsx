import { Alert, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatPriceRatio } from '../format/format-date-time';
import { formatMicroUnits } from '../format/format-micro-units';
import { costDenominator, explainCost, formatExactAmount, type CostComponent } from './cost-breakdown';
import type { UsageLog } from './usage-logs-types';

/** A request's cost breakdown: each component = quantity × price × ratio, their exact total, rounded up once = the cost. */
export function CostBreakdownTable({ log }: { log: UsageLog }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const breakdown = explainCost(log);
  if (breakdown === null) return <Text size="sm" c="dimmed">{t('usageLogs.detail.noPricing')}</Text>;
  const number = new Intl.NumberFormat(locale);
  const money = (microUnits: number) => formatMicroUnits(microUnits, locale);

  const quantityOf = (component: CostComponent): string => {
    switch (component.kind) {
      case 'input':
      case 'cachedInput':
      case 'cacheWrite':
      case 'cacheWriteOneHour':
      case 'output':
        return t('usageLogs.detail.tokens', { value: number.format(component.quantity) });
      case 'audio':
        return t('usageLogs.detail.seconds', { value: number.format(component.quantity / 1000) });
      case 'image':
      case 'video':
        return '—';
      default: {
        const unreachable: never = component.kind;
        return String(unreachable);
      }
    }
  };
  const priceOf = (component: CostComponent): string => {
    switch (component.kind) {
      case 'input':
      case 'cachedInput':
      case 'cacheWrite':
      case 'cacheWriteOneHour':
      case 'output':
        return t('usageLogs.detail.perMillion', { price: money(component.unitPrice) });
      case 'audio':
        return t('usageLogs.detail.perMinute', { price: money(component.unitPrice) });
      case 'image':
      case 'video':
        return t('usageLogs.detail.total', { price: money(component.unitPrice) });
      default: {
        const unreachable: never = component.kind;
        return String(unreachable);
      }
    }
  };

  return (
    <Stack gap="xs" data-testid="cost-breakdown">
      <Text size="sm">{t('usageLogs.detail.ratio', { ratio: formatPriceRatio(breakdown.priceRatioMillionths) })}</Text>
      <Text size="xs" c="dimmed">{t('usageLogs.detail.formula')}</Text>
      <Table.ScrollContainer minWidth={480}>
        <Table verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              {(['component', 'quantity', 'price', 'amount'] as const).map((column) => (
                <Table.Th key={column}>{t(`usageLogs.detail.breakdownColumns.${column}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {breakdown.components.map((component) => (
              <Table.Tr key={component.kind}>
                <Table.Td>{t(`usageLogs.detail.components.${component.kind}`)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{quantityOf(component)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{priceOf(component)}</Table.Td>
                <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>{formatExactAmount(component.numerator, costDenominator)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th colSpan={3}>{t('usageLogs.detail.exactTotal')}</Table.Th>
              <Table.Td ff="monospace" data-testid="breakdown-exact-total">{formatExactAmount(breakdown.totalNumerator, costDenominator)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th colSpan={3}>{t('usageLogs.detail.roundedTotal')}</Table.Th>
              <Table.Td ff="monospace" data-testid="breakdown-rounded-total">{money(breakdown.roundedUp)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th colSpan={3}>{t('usageLogs.detail.charged')}</Table.Th>
              <Table.Td ff="monospace">{money(log.cost)}</Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      {breakdown.matchesCost ? (
        <Alert color="teal" variant="light" p="xs">{t('usageLogs.detail.matches')}</Alert>
      ) : (
        <Alert color="orange" variant="light" p="xs">{t('usageLogs.detail.mismatch', { cost: money(log.cost) })}</Alert>
      )}
    </Stack>
  );
}
