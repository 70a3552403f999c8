import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { usersQueryKey, type AdminUser } from './users-types';

/** Disable or enable a user after confirmation; an administrator cannot disable themself (the button says why). */
export function UserStatusControl({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const disabling = user.status !== 'disabled';

  const change = useMutation({
    mutationFn: () => requestApi('POST', `/users/${encodeURIComponent(user.id)}/${disabling ? 'disable' : 'enable'}`),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: disabling ? t('users.status.disabledDone') : t('users.status.enabledDone') });
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
  });

  function confirm() {
    modals.openConfirmModal({
      title: disabling ? t('users.status.disableTitle', { email: user.email }) : t('users.status.enableTitle', { email: user.email }),
      children: <Text size="sm">{disabling ? t('users.status.disableBody') : t('users.status.enableBody')}</Text>,
      labels: { confirm: disabling ? t('users.status.disable') : t('users.status.enable'), cancel: t('users.cancel') },
      confirmProps: { color: disabling ? 'red' : 'teal' },
      onConfirm: () => change.mutate(),
    });
  }

  return (
    <Group gap="sm" wrap="wrap">
      <Button color={disabling ? 'red' : 'teal'} variant="light" disabled={disabling && isSelf} loading={change.isPending} onClick={confirm}>
        {disabling ? t('users.status.disable') : t('users.status.enable')}
      </Button>
      {disabling && isSelf && <Text size="sm" c="dimmed">{t('users.status.notYourself')}</Text>}
    </Group>
  );
}
