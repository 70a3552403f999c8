import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/format-date-time';
import { formatMicroUnits } from '../../format/format-micro-units';
import type { AdminUser } from './users-types';

/** Every user: name and email, role, status, balance, debt, granted groups, created, and a button to manage them. */
export function UsersTable({ users, onManage }: { users: AdminUser[]; onManage: (user: AdminUser) => void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Table.ScrollContainer minWidth={920}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            {(['user', 'role', 'status', 'balance', 'debt', 'groups', 'created', 'actions'] as const).map((column) => (
              <Table.Th key={column}>{t(`users.columns.${column}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id} data-testid={`user-row-${user.id}`}>
              <Table.Td>
                <Text fw={600} size="sm">{user.displayName}</Text>
                <Text c="dimmed" size="xs">{user.email}</Text>
              </Table.Td>
              <Table.Td><Badge variant="light" color={user.role === 'admin' ? 'grape' : 'gray'} style={{ minWidth: 'max-content' }}>{t(`users.roles.${user.role}`)}</Badge></Table.Td>
              <Table.Td>
                <Badge variant="light" color={user.status === 'disabled' ? 'red' : 'teal'} style={{ minWidth: 'max-content' }}>
                  {user.status === 'disabled' ? t('users.statuses.disabled') : t('users.statuses.active')}
                </Badge>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatMicroUnits(user.balance.balance, locale)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }} c={user.balance.debt > 0 ? 'red' : undefined}>{formatMicroUnits(user.balance.debt, locale)}</Table.Td>
              <Table.Td>
                {user.groups.length === 0 ? (
                  <Text size="sm" c="dimmed">{t('users.noGroups')}</Text>
                ) : (
                  <Group gap={4}>{user.groups.map((group) => <Badge key={group.id} variant="outline" size="sm" tt="none">{group.name}</Badge>)}</Group>
                )}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(user.createdAt, locale)}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="light" aria-label={t('users.manageNamed', { email: user.email })} onClick={() => onManage(user)}>{t('users.manage')}</Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
