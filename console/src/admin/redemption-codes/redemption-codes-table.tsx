import { Anchor, Button, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/format-date-time';
import { formatMicroUnits } from '../../format/format-micro-units';
import { RedemptionCodeStatusBadge } from './redemption-code-status-badge';
import type { RedemptionCode } from './redemption-codes-types';

/** What the table's row buttons do. */
export interface RedemptionCodeRowActions {
  /** shows only this batch */
  onShowBatch: (batchId: string) => void;
  onDisableCode: (code: RedemptionCode) => void;
  onDisableBatch: (batchId: string) => void;
  /** the code or batch whose disable is in flight, if any */
  busyId: string | null;
}

/** The table's columns, in order. */
const codeColumns = ['code', 'batch', 'amount', 'status', 'note', 'expires', 'created', 'redeemed', 'actions'] as const;

/** Stored codes: prefix, batch, amount, status, note, expiry, creation, redemption, and disable buttons. */
export function RedemptionCodesTable({ codes, actions }: { codes: RedemptionCode[]; actions: RedemptionCodeRowActions }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Table.ScrollContainer minWidth={1050}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            {codeColumns.map((column) => (
              <Table.Th key={column}>{t(`redemptionCodes.columns.${column}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {codes.map((code) => (
            <Table.Tr key={code.id} data-testid={`code-row-${code.id}`}>
              <Table.Td><Text ff="monospace" size="sm" style={{ whiteSpace: 'nowrap' }}>{code.codePrefix}…</Text></Table.Td>
              <Table.Td>
                <Anchor component="button" type="button" ff="monospace" size="xs" maw={140} title={code.batchId} style={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} onClick={() => actions.onShowBatch(code.batchId)} aria-label={t('redemptionCodes.showBatch', { id: code.batchId })}>
                  {code.batchId}
                </Anchor>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatMicroUnits(code.amount, locale)}</Table.Td>
              <Table.Td><RedemptionCodeStatusBadge status={code.status} /></Table.Td>
              <Table.Td><Text size="sm">{code.note ?? '—'}</Text></Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{code.expiresAt === null ? t('redemptionCodes.never') : formatDateTime(code.expiresAt, locale)}</Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(code.createdAt, locale)}</Text>
                <Text size="xs" c="dimmed">{code.createdBy}</Text>
              </Table.Td>
              <Table.Td>
                {code.redeemedAt === null ? (
                  '—'
                ) : (
                  <>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(code.redeemedAt, locale)}</Text>
                    <Text size="xs" c="dimmed" ff="monospace">{code.redeemedBy}</Text>
                  </>
                )}
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    disabled={code.status !== 'active'}
                    loading={actions.busyId === code.id}
                    onClick={() => actions.onDisableCode(code)}
                    aria-label={t('redemptionCodes.disableCodeNamed', { prefix: code.codePrefix })}
                  >
                    {t('redemptionCodes.disableCode')}
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    loading={actions.busyId === code.batchId}
                    onClick={() => actions.onDisableBatch(code.batchId)}
                    aria-label={t('redemptionCodes.disableBatchNamed', { prefix: code.codePrefix })}
                  >
                    {t('redemptionCodes.disableBatch')}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
