import { Button, Modal, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataList } from '../../api/api-types';
import { requestApi } from '../../api/request-api';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/query-state';
import { useAdminWrite } from '../groups/use-admin-write';
import { ChannelForm } from './channel-form';
import { ChannelTestForm } from './channel-test-form';
import { channelsQueryKeys } from './channels-query-keys';
import { ChannelsTable } from './channels-table';
import type { Channel, ChannelPreset } from './channels-types';

/** What a modal of the page is doing. */
type ChannelDialog = { kind: 'create' } | { kind: 'edit'; channel: Channel } | { kind: 'test'; channel: Channel } | null;

/** The administrators' Channels page: list, create from a preset, edit (secret write-only), test, enable/disable, delete. */
export function ChannelsPage() {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<ChannelDialog>(null);
  const channels = useQuery({ queryKey: channelsQueryKeys.channels, queryFn: () => requestApi<DataList<Channel>>('GET', '/channels') });
  const presets = useQuery({ queryKey: channelsQueryKeys.presets, queryFn: () => requestApi<DataList<ChannelPreset>>('GET', '/channel-presets'), staleTime: Infinity });
  const close = () => setDialog(null);
  const toggle = useAdminWrite({
    write: (channel: Channel) => requestApi<Channel>('POST', `/channels/${encodeURIComponent(channel.id)}/${channel.status === 'enabled' ? 'disable' : 'enable'}`),
    success: (saved) => t(saved.status === 'enabled' ? 'channels.enabled' : 'channels.disabled', { name: saved.name }),
    refresh: [channelsQueryKeys.channels],
  });
  const remove = useAdminWrite({
    write: (channel: Channel) => requestApi('DELETE', `/channels/${encodeURIComponent(channel.id)}`),
    success: (_answer, channel) => t('channels.deleted', { name: channel.name }),
    refresh: [channelsQueryKeys.channels],
  });

  function confirmDelete(channel: Channel) {
    modals.openConfirmModal({
      title: t('channels.deleteTitle', { name: channel.name }),
      children: <Text size="sm">{t('channels.deleteBody')}</Text>,
      labels: { confirm: t('channels.delete'), cancel: t('channels.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(channel),
    });
  }

  let content;
  if (channels.isPending) content = <LoadingState />;
  else if (channels.isError) content = <ErrorState error={channels.error} onRetry={() => void channels.refetch()} />;
  else if (channels.data.data.length === 0) content = <EmptyState title={t('channels.empty')} hint={t('channels.emptyHint')} />;
  else {
    content = (
      <ChannelsTable
        channels={channels.data.data}
        actions={{
          onTest: (channel) => setDialog({ kind: 'test', channel }),
          onEdit: (channel) => setDialog({ kind: 'edit', channel }),
          onToggle: (channel) => toggle.mutate(channel),
          onDelete: confirmDelete,
          busyChannelId: toggle.isPending ? (toggle.variables?.id ?? null) : null,
        }}
      />
    );
  }

  const formOpen = dialog?.kind === 'create' || dialog?.kind === 'edit';
  return (
    <Stack gap="md">
      <PageHeader
        title={t('channels.title')}
        subtitle={t('channels.subtitle')}
        actions={<Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'create' })}>{t('channels.form.createTitle')}</Button>}
      />
      {content}
      <Modal opened={formOpen} onClose={close} size="xl" title={dialog?.kind === 'edit' ? t('channels.form.editTitle', { name: dialog.channel.name }) : t('channels.form.createTitle')}>
        {formOpen && presets.isPending && <LoadingState />}
        {formOpen && presets.isError && <ErrorState error={presets.error} onRetry={() => void presets.refetch()} />}
        {dialog?.kind === 'create' && presets.data && <ChannelForm presets={presets.data.data} onDone={close} />}
        {dialog?.kind === 'edit' && presets.data && <ChannelForm channel={dialog.channel} presets={presets.data.data} onDone={close} />}
      </Modal>
      <Modal opened={dialog?.kind === 'test'} onClose={close} size="lg" title={dialog?.kind === 'test' ? t('channels.test.title', { name: dialog.channel.name }) : ''}>
        {dialog?.kind === 'test' && <ChannelTestForm channel={dialog.channel} />}
      </Modal>
    </Stack>
  );
}
