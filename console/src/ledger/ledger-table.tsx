import { Badge, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format/format-date-time';
import { formatMicroUnits } from '../format/format-micro-units';
import { ledgerKindColor } from './ledger-kind-color';
import type { LedgerRow } from './ledger-types';

/** A signed amount with its sign shown: "+10.00", "-0.0042", "0.00". */
export function formatSignedMicroUnits(amount: number, locale: string): string {
  return amount > 0 ? `+${formatMicroUnits(amount, locale)}` : formatMicroUnits(amount, locale);
}

/** The ledger's rows: time, kind, amount, balance after, debt change, description and reference. */
export function LedgerTable({ rows }: { rows: LedgerRow[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Table.ScrollContainer minWidth={880}>
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {(['time', 'kind', 'amount', 'balanceAfter', 'debtChange', 'description', 'reference'] as const).map((column) => (
              <Table.Th key={column} style={{ whiteSpace: 'nowrap', ...(column === 'amount' || column === 'balanceAfter' || column === 'debtChange' ? { textAlign: 'right' } : {}) }}>
                {t(`ledger.columns.${column}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid={`ledger-row-${row.id}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.createdAt, locale)}</Table.Td>
              <Table.Td><Badge color={ledgerKindColor(row.kind)} variant="light" style={{ minWidth: 'max-content' }}>{t(`ledger.kinds.${row.kind}`)}</Badge></Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm" fw={600} c={row.amount > 0 ? 'teal' : row.amount < 0 ? 'red' : undefined}>{formatSignedMicroUnits(row.amount, locale)}</Text>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>{formatMicroUnits(row.balanceAfter, locale)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>{row.debtChange === 0 ? '—' : formatSignedMicroUnits(row.debtChange, locale)}</Table.Td>
              <Table.Td>{row.description}</Table.Td>
              <Table.Td><Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>{row.reference ?? '—'}</Text></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
