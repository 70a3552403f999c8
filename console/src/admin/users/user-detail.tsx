import { Badge, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../format/format-date-time';
import { formatMicroUnits } from '../../format/format-micro-units';
import { CreditAdjustmentForm } from './credit-adjustment-form';
import { UserGroupsForm } from './user-groups-form';
import { UserLimitsForm } from './user-limits-form';
import { UserStatusControl } from './user-status-control';
import type { AdminUser, ModelGroup } from './users-types';

/** One user for an administrator: balance and debt, a balance adjustment, groups, limits, and disable/enable. */
export function UserDetail({ user, groups, isSelf }: { user: AdminUser; groups: ModelGroup[]; isSelf: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const figure = (label: string, value: string, testId?: string) => (
    <div>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text fw={600} data-testid={testId}>{value}</Text>
    </div>
  );
  return (
    <Stack gap="md">
      <Group gap="xs" wrap="wrap">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>{user.displayName}</Text>
        <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>{user.email}</Text>
        <Badge variant="light" color={user.role === 'admin' ? 'grape' : 'gray'}>{t(`users.roles.${user.role}`)}</Badge>
        <Badge variant="light" color={user.status === 'disabled' ? 'red' : 'teal'}>{user.status === 'disabled' ? t('users.statuses.disabled') : t('users.statuses.active')}</Badge>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        {figure(t('users.columns.balance'), formatMicroUnits(user.balance.balance, locale), 'user-detail-balance')}
        {figure(t('users.detail.available'), formatMicroUnits(user.balance.available, locale))}
        {figure(t('users.columns.debt'), formatMicroUnits(user.balance.debt, locale))}
        {figure(t('users.columns.created'), formatDateTime(user.createdAt, locale))}
      </SimpleGrid>
      <Divider />
      <Title order={4}>{t('users.credit.title')}</Title>
      <CreditAdjustmentForm user={user} />
      <Divider />
      <Title order={4}>{t('users.groups.title')}</Title>
      <UserGroupsForm key={user.groups.map((group) => group.id).join(',')} user={user} groups={groups} />
      <Divider />
      <Title order={4}>{t('users.limits.title')}</Title>
      <UserLimitsForm key={JSON.stringify(user.limits)} user={user} />
      <Divider />
      <Title order={4}>{t('users.status.title')}</Title>
      <UserStatusControl user={user} isSelf={isSelf} />
    </Stack>
  );
}
