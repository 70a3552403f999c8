import { Button, Modal, Stack, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataList } from '../../api/api-types';
import { requestApi } from '../../api/request-api';
import { useCurrentSession } from '../../api/use-current-session';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { CreateUserForm } from './create-user-form';
import { filterUsers } from './filter-users';
import { UserDetail } from './user-detail';
import { UsersTable } from './users-table';
import { usersQueryKey, type AdminUser, type ModelGroup } from './users-types';

/** The administrators' Users page: every user with balance, debt, role, status and groups; search; create; manage one. */
export function UsersPage() {
  const { t } = useTranslation();
  const session = useCurrentSession();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [managedUserId, setManagedUserId] = useState<string | null>(null);
  const users = useQuery({ queryKey: usersQueryKey, queryFn: () => requestApi<DataList<AdminUser>>('GET', '/users') });
  const groups = useQuery({ queryKey: ['admin', 'groups'], queryFn: () => requestApi<DataList<ModelGroup>>('GET', '/groups') });
  // The managed user is read from the list, so the dialog shows what the gateway answers after each change.
  const managed = users.data?.data.find((user) => user.id === managedUserId);

  let content;
  if (users.isPending || groups.isPending) content = <LoadingState />;
  else if (users.isError) content = <ErrorState error={users.error} onRetry={() => void users.refetch()} />;
  else if (groups.isError) content = <ErrorState error={groups.error} onRetry={() => void groups.refetch()} />;
  else {
    const shown = filterUsers(users.data.data, search);
    content =
      shown.length === 0 ? (
        <EmptyState title={users.data.data.length === 0 ? t('users.empty') : t('users.noMatch')} hint={users.data.data.length === 0 ? undefined : t('users.noMatchHint')} />
      ) : (
        <UsersTable users={shown} onManage={(user) => setManagedUserId(user.id)} />
      );
  }

  return (
    <Stack gap="md">
      <PageHeader
        title={t('users.title')}
        subtitle={t('users.subtitle')}
        actions={<Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>{t('users.create.open')}</Button>}
      />
      <TextInput
        label={t('users.search')}
        placeholder={t('users.searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={420}
      />
      {content}
      <Modal opened={creating} onClose={() => setCreating(false)} title={t('users.create.title')} closeButtonProps={{ 'aria-label': t('users.close') }}>
        <CreateUserForm onCreated={() => setCreating(false)} />
      </Modal>
      <Modal opened={managed !== undefined} onClose={() => setManagedUserId(null)} title={t('users.detail.title')} size="xl" closeButtonProps={{ 'aria-label': t('users.close') }}>
        {managed && groups.data && <UserDetail user={managed} groups={groups.data.data} isSelf={managed.id === session.data?.user?.id} />}
      </Modal>
    </Stack>
  );
}
