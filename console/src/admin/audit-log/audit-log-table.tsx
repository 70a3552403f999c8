import { Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/format-date-time';
import { auditActionCatalogKey } from './audit-action-label';
import { AuditDetails } from './audit-details';
import type { AuditEntry } from './audit-log-types';

/** The audit entries as a table that scrolls sideways on a narrow screen. */
export function AuditLogTable({ entries }: { entries: AuditEntry[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped verticalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            {(['time', 'actor', 'action', 'target', 'details'] as const).map((column) => (
              <Table.Th key={column}>{t(`auditLog.columns.${column}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => {
            const labelKey = auditActionCatalogKey(entry.action);
            return (
              <Table.Tr key={entry.id} data-testid={`audit-row-${entry.id}`} style={{ verticalAlign: 'top' }}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.createdAt, i18n.language)}</Table.Td>
                <Table.Td>{entry.actorLabel}</Table.Td>
                <Table.Td>
                  <Stack gap={0}>
                    {i18n.exists(labelKey) && <Text size="sm" fw={500}>{t(labelKey)}</Text>}
                    <Text size="xs" ff="monospace" c="dimmed">{entry.action}</Text>
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Stack gap={0}>
                    <Text size="sm">{entry.targetType}</Text>
                    {entry.targetId && <Text size="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>{entry.targetId}</Text>}
                  </Stack>
                </Table.Td>
                <Table.Td><AuditDetails details={entry.details} /></Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
