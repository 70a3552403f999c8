import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiKey, GrantedGroup } from '../api/api-types';
import { formatDateTime, formatPriceRatio } from '../format/format-date-time';
import { formatMicroUnits } from '../format/format-micro-units';

/** What the table's row buttons do. */
export interface KeyRowActions {
  onToggle: (key: ApiKey) => void;
  onDelete: (key: ApiKey) => void;
  onEdit: (key: ApiKey) => void;
  /** the key whose enable/disable is in flight, if any */
  busyKeyId: string | null;
  /** whether the caller is an administrator, who may enable a key an admin disabled */
  isAdmin: boolean;
}

/** The caller's keys: name, prefix, group with ratio, status, spend against cap, expiry, addresses, dates, actions (edit, enable/disable, delete). */
export function ApiKeysTable({ keys, groups, actions }: { keys: ApiKey[]; groups: GrantedGroup[]; actions: KeyRowActions }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const groupsById = new Map(groups.map((group) => [group.id, group]));
  const dateOrNever = (value: number | null | undefined) => (value ? formatDateTime(value, locale) : t('keys.never'));
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            {(['name', 'key', 'group', 'status', 'spent', 'expires', 'allowedIps', 'created', 'lastUsed', 'actions'] as const).map((column) => (
              <Table.Th key={column} style={{ whiteSpace: 'nowrap' }}>{t(`keys.columns.${column}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => {
            const group = groupsById.get(key.groupId);
            const statusKey = key.disabledReason ?? 'active';
            // An owner cannot enable a key an administrator disabled: the button is off and the row says why.
            const lockedByAdmin = key.status === 'disabled' && key.disabledBy === 'admin' && !actions.isAdmin;
            return (
              <Table.Tr key={key.id} data-testid={`key-row-${key.id}`}>
                <Table.Td fw={600}>{key.name}</Table.Td>
                <Table.Td><Text ff="monospace" size="sm" style={{ whiteSpace: 'nowrap' }}>{key.keyPrefix}…</Text></Table.Td>
                <Table.Td>{group ? `${group.name} ×${formatPriceRatio(group.priceRatioMillionths)}` : t('keys.unknownGroup')}</Table.Td>
                <Table.Td>
                  <Badge color={key.usable ? 'teal' : 'gray'} variant="light" style={{ minWidth: 'max-content' }}>{t(`keys.status.${statusKey}`)}</Badge>
                  {lockedByAdmin && <Text size="xs" c="dimmed" mt={4}>{t('keys.adminOnlyEnable')}</Text>}
                </Table.Td>
                <Table.Td>{formatMicroUnits(key.spent, locale)} / {key.spendingCap === null ? t('keys.noCap') : formatMicroUnits(key.spendingCap, locale)}</Table.Td>
                <Table.Td>{dateOrNever(key.expiresAt)}</Table.Td>
                <Table.Td>{key.allowedIps.length > 0 ? key.allowedIps.join(', ') : t('keys.anyAddress')}</Table.Td>
                <Table.Td>{formatDateTime(key.createdAt, locale)}</Table.Td>
                <Table.Td>{dateOrNever(key.lastUsedAt)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="light" onClick={() => actions.onEdit(key)}>{t('keys.edit.action')}</Button>
                    <Button size="xs" variant="light" loading={actions.busyKeyId === key.id} disabled={lockedByAdmin} onClick={() => actions.onToggle(key)}>
                      {key.status === 'active' ? t('keys.disable') : t('keys.enable')}
                    </Button>
                    <Button size="xs" variant="light" color="red" onClick={() => actions.onDelete(key)}>{t('keys.delete')}</Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
