import { ActionIcon, Table, Text } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format/format-date-time';
import { formatMicroUnits } from '../format/format-micro-units';
import { UsageLogStatusBadge } from './usage-log-status-badge';
import type { UsageLog } from './usage-logs-types';

/** How the table names keys and users (ids of deleted keys or unknown users fall back to a label). */
export interface UsageLogNames {
  keyName: (apiKeyId: string) => string;
  /** given on the all-logs page: adds the user column */
  userName?: (userId: string) => string;
}

/** The usage logs as a table that scrolls sideways on a narrow screen; each row opens its detail. */
export function UsageLogsTable({ logs, names, onOpen }: { logs: UsageLog[]; names: UsageLogNames; onOpen: (log: UsageLog) => void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const number = new Intl.NumberFormat(locale);
  const columns = ['time', ...(names.userName ? (['user'] as const) : []), 'key', 'model', 'endpoint', 'tokens', 'cost', 'status', 'latency', 'streamed', 'requestId', 'details'] as const;
  return (
    <Table.ScrollContainer minWidth={1200}>
      <Table striped highlightOnHover verticalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column} style={{ whiteSpace: 'nowrap' }}>{t(`usageLogs.columns.${column}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {logs.map((log) => (
            <Table.Tr key={log.id} data-testid={`usage-log-row-${log.id}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(log.createdAt, locale)}</Table.Td>
              {names.userName && <Table.Td>{names.userName(log.userId)}</Table.Td>}
              <Table.Td>{names.keyName(log.apiKeyId)}</Table.Td>
              <Table.Td><Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>{log.model}</Text></Table.Td>
              <Table.Td>{log.endpoint}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {number.format(log.promptTokens)} / {number.format(log.completionTokens)} / {number.format(log.cachedTokens)}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatMicroUnits(log.cost, locale)}</Table.Td>
              <Table.Td><UsageLogStatusBadge log={log} /></Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {t('usageLogs.milliseconds', { value: number.format(log.latencyMs) })} / {log.firstTokenMs === null ? '—' : t('usageLogs.milliseconds', { value: number.format(log.firstTokenMs) })}
              </Table.Td>
              <Table.Td>{log.streamed ? t('usageLogs.yes') : t('usageLogs.no')}</Table.Td>
              <Table.Td><Text size="xs" ff="monospace" style={{ whiteSpace: 'nowrap' }}>{log.requestId ?? '—'}</Text></Table.Td>
              <Table.Td>
                <ActionIcon variant="light" aria-label={t('usageLogs.openDetails', { requestId: log.requestId ?? log.id })} onClick={() => onOpen(log)}>
                  <IconListDetails size={16} />
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
