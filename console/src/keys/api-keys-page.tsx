import { Button, Modal, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKey, CreatedApiKey, DataList, GrantedGroup } from '../api/api-types';
import { myGroupsQueryOptions } from '../api/my-groups-query';
import { requestApi } from '../api/request-api';
import { useCurrentSession } from '../api/use-current-session';
import { PageHeader } from '../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../components/query-state';
import { ApiKeysTable } from './api-keys-table';
import { CreateKeyForm } from './create-key-form';
import { EditKeyForm } from './edit-key-form';
import { NewKeySecret } from './new-key-secret';

/** The query key of the caller's key list. */
const keysQueryKey = ['keys'] as const;

/** The API keys page: list, create (secret shown once), edit, enable/disable and delete with confirmation. */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKey | null>(null);
  const session = useCurrentSession();
  const [created, setCreated] = useState<{ key: CreatedApiKey; group: GrantedGroup } | null>(null);
  const keys = useQuery({ queryKey: keysQueryKey, queryFn: () => requestApi<DataList<ApiKey>>('GET', '/keys') });
  const groups = useQuery({ ...myGroupsQueryOptions, queryFn: () => requestApi<DataList<GrantedGroup>>('GET', '/me/groups') });
  const refreshKeys = () => queryClient.invalidateQueries({ queryKey: keysQueryKey });

  const toggle = useMutation({
    mutationFn: (key: ApiKey) => requestApi<ApiKey>('POST', `/keys/${encodeURIComponent(key.id)}/${key.status === 'active' ? 'disable' : 'enable'}`),
    onSuccess: (saved) => notifications.show({ color: 'teal', message: t(saved.status === 'active' ? 'keys.enabledNotice' : 'keys.disabledNotice', { name: saved.name }) }),
    onSettled: refreshKeys,
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const remove = useMutation({
    mutationFn: (key: ApiKey) => requestApi('DELETE', `/keys/${encodeURIComponent(key.id)}`),
    onSuccess: () => notifications.show({ color: 'teal', message: t('keys.deleted') }),
    onSettled: refreshKeys,
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });

  function confirmDelete(key: ApiKey) {
    modals.openConfirmModal({
      title: t('keys.deleteTitle', { name: key.name }),
      children: <Text size="sm">{t('keys.deleteBody')}</Text>,
      labels: { confirm: t('keys.delete'), cancel: t('keys.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(key),
    });
  }

  function showCreated(key: CreatedApiKey, group: GrantedGroup) {
    setCreating(false);
    setCreated({ key, group });
    void refreshKeys();
  }

  let content;
  if (keys.isPending || groups.isPending) content = <LoadingState />;
  else if (keys.isError) content = <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />;
  else if (groups.isError) content = <ErrorState error={groups.error} onRetry={() => void groups.refetch()} />;
  else if (keys.data.data.length === 0) content = <EmptyState title={t('keys.empty')} hint={t('keys.emptyHint')} />;
  else {
    content = (
      <ApiKeysTable
        keys={keys.data.data}
        groups={groups.data.data}
        actions={{
          onToggle: (key) => toggle.mutate(key),
          onDelete: confirmDelete,
          onEdit: setEditing,
          busyKeyId: toggle.isPending ? (toggle.variables?.id ?? null) : null,
          isAdmin: session.data?.isAdmin === true,
        }}
      />
    );
  }

  return (
    <Stack gap="md">
      <PageHeader
        title={t('keys.title')}
        subtitle={t('keys.subtitle')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} disabled={!groups.data}>
            {t('keys.create')}
          </Button>
        }
      />
      {content}
      <Modal opened={creating} onClose={() => setCreating(false)} title={t('keys.form.title')} fullScreen={false} size="lg">
        {groups.data && <CreateKeyForm groups={groups.data.data} onCreated={showCreated} />}
      </Modal>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing ? t('keys.edit.title', { name: editing.name }) : ''} size="lg">
        {editing && (
          <EditKeyForm
            apiKey={editing}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void refreshKeys();
            }}
          />
        )}
      </Modal>
      <Modal opened={created !== null} onClose={() => setCreated(null)} title={t('keys.secret.title')} size="xl" closeOnClickOutside={false}>
        {created && <NewKeySecret secret={created.key.key} group={created.group} onDone={() => setCreated(null)} />}
      </Modal>
    </Stack>
  );
}
