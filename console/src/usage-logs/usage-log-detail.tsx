import { Divider, Drawer, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format/format-date-time';
import { formatMicroUnits } from '../format/format-micro-units';
import { CostBreakdownTable } from './cost-breakdown-table';
import { UsageLogStatusBadge } from './usage-log-status-badge';
import type { UsageLogNames } from './usage-logs-table';
import type { UsageLog } from './usage-logs-types';

/** A drawer with every field of one usage log and its cost breakdown; full screen on a phone. */
export function UsageLogDetail({ log, names, onClose }: { log: UsageLog | null; names: UsageLogNames; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const phone = useMediaQuery('(max-width: 36em)');
  const locale = i18n.language;
  const number = new Intl.NumberFormat(locale);
  const milliseconds = (value: number | null) => (value === null ? t('usageLogs.detail.none') : t('usageLogs.milliseconds', { value: number.format(value) }));
  const monospace = (value: string | null) => (value === null ? t('usageLogs.detail.none') : <Text span size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>{value}</Text>);

  let fields: Array<[string, ReactNode]> = [];
  if (log) {
    fields = [
      ['createdAt', formatDateTime(log.createdAt, locale)],
      ['requestId', monospace(log.requestId)],
      ['id', monospace(log.id)],
      ...(names.userName ? [['user', `${names.userName(log.userId)} (${log.userId})`] as [string, ReactNode]] : []),
      ['key', `${names.keyName(log.apiKeyId)} (${log.apiKeyId})`],
      ['model', monospace(log.model)],
      ['channelId', monospace(log.channelId)],
      ['endpoint', log.endpoint],
      ['promptTokens', number.format(log.promptTokens)],
      ['completionTokens', number.format(log.completionTokens)],
      ['cachedTokens', number.format(log.cachedTokens)],
      ['cacheWriteTokens', number.format(log.cacheWriteTokens)],
      ...((log.cacheWriteOneHourTokens ?? 0) > 0
        ? [['cacheWriteOneHourTokens', number.format(log.cacheWriteOneHourTokens ?? 0)] as [string, ReactNode]]
        : []),
      ['cost', formatMicroUnits(log.cost, locale)],
      ['status', <UsageLogStatusBadge key="status" log={log} />],
      ['errorCode', monospace(log.errorCode)],
      ['latencyMs', milliseconds(log.latencyMs)],
      ['firstTokenMs', milliseconds(log.firstTokenMs)],
      ['streamed', log.streamed ? t('usageLogs.yes') : t('usageLogs.no')],
      ['clientIp', monospace(log.clientIp)],
    ];
  }

  return (
    <Drawer opened={log !== null} onClose={onClose} position="right" size={phone ? '100%' : 'xl'} title={t('usageLogs.detail.title')}>
      {log && (
        <Stack gap="md">
          <Table verticalSpacing={4} fz="sm" withRowBorders={false}>
            <Table.Tbody>
              {fields.map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Th w="40%" fw={500} c="dimmed">{t(`usageLogs.detail.fields.${name}`)}</Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Divider />
          <Title order={4}>{t('usageLogs.detail.breakdownTitle')}</Title>
          <CostBreakdownTable log={log} />
        </Stack>
      )}
    </Drawer>
  );
}
