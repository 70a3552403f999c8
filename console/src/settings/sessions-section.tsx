import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../api/request-api';
import type { DataList } from '../api/api-types';
import { EmptyState, ErrorState, LoadingState } from '../components/query-state';
import { formatDateTime } from '../format/format-date-time';
import { describeUserAgent } from './describe-user-agent';
import { sessionsQueryKey } from './settings-query-keys';
import { SettingsSection } from './settings-section';
import type { ConsoleSession } from './settings-types';

/** The sessions card: every live session (this one marked) with its browser, address and last activity; revoke one or all others. */
export function SessionsSection() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: sessionsQueryKey, queryFn: () => requestApi<DataList<ConsoleSession>>('GET', '/auth/sessions') });
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey });

  const revoke = useMutation({
    mutationFn: (session: ConsoleSession) => requestApi('DELETE', `/auth/sessions/${encodeURIComponent(session.id)}`),
    onSuccess: () => notifications.show({ color: 'teal', message: t('settings.sessions.revoked') }),
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
    onSettled: refresh,
  });
  const revokeOthers = useMutation({
    mutationFn: () => requestApi<{ deleted: number }>('DELETE', '/auth/sessions'),
    onSuccess: (answer) => notifications.show({ color: 'teal', message: t('settings.sessions.othersRevoked', { count: answer.deleted }) }),
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
    onSettled: refresh,
  });

  function confirmRevoke(session: ConsoleSession) {
    modals.openConfirmModal({
      title: t('settings.sessions.revokeTitle'),
      children: <Text size="sm">{t('settings.sessions.revokeBody', { device: device(session), address: session.clientIp ?? '—' })}</Text>,
      labels: { confirm: t('settings.sessions.revoke'), cancel: t('settings.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => revoke.mutate(session),
    });
  }

  function confirmRevokeOthers() {
    modals.openConfirmModal({
      title: t('settings.sessions.revokeOthersTitle'),
      children: <Text size="sm">{t('settings.sessions.revokeOthersBody')}</Text>,
      labels: { confirm: t('settings.sessions.revokeOthers'), cancel: t('settings.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => revokeOthers.mutate(),
    });
  }

  const device = (session: ConsoleSession) => {
    const described = describeUserAgent(session.userAgent);
    return described ? t('settings.sessions.device', described) : t('settings.sessions.unknownDevice');
  };

  let content;
  if (sessions.isPending) content = <LoadingState />;
  else if (sessions.isError) content = <ErrorState error={sessions.error} onRetry={() => void sessions.refetch()} />;
  else if (sessions.data.data.length === 0) content = <EmptyState title={t('settings.sessions.empty')} />;
  else {
    content = (
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {(['device', 'address', 'lastSeen', 'signedIn', 'actions'] as const).map((column) => (
                <Table.Th key={column}>{t(`settings.sessions.columns.${column}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sessions.data.data.map((session) => (
              <Table.Tr key={session.id} data-testid={`session-row-${session.id}`}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Text size="sm" title={session.userAgent ?? undefined}>{device(session)}</Text>
                    {session.current && <Badge variant="light" color="teal" style={{ minWidth: 'max-content' }}>{t('settings.sessions.current')}</Badge>}
                  </Group>
                </Table.Td>
                <Table.Td><Text size="sm" ff="monospace">{session.clientIp ?? '—'}</Text></Table.Td>
                <Table.Td>{formatDateTime(session.lastSeenAt, i18n.language)}</Table.Td>
                <Table.Td>{formatDateTime(session.createdAt, i18n.language)}</Table.Td>
                <Table.Td>
                  {!session.current && (
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      loading={revoke.isPending && revoke.variables?.id === session.id}
                      aria-label={t('settings.sessions.revokeNamed', { device: device(session), address: session.clientIp ?? '—' })}
                      onClick={() => confirmRevoke(session)}
                    >
                      {t('settings.sessions.revoke')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  const others = sessions.data?.data.filter((session) => !session.current).length ?? 0;
  return (
    <SettingsSection id="sessions" title={t('settings.sessions.title')} description={t('settings.sessions.description')}>
      {content}
      <Group>
        <Button variant="light" color="red" disabled={others === 0} loading={revokeOthers.isPending} onClick={confirmRevokeOthers}>
          {t('settings.sessions.revokeOthers')}
        </Button>
      </Group>
    </SettingsSection>
  );
}
