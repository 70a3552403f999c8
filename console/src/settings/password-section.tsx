import { Button, Checkbox, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../api/request-api';
import { SettingsSection } from './settings-section';
import type { PasswordChanged } from './settings-types';
import { sessionsQueryKey } from './settings-query-keys';

/** Shortest password the gateway accepts. */
export const minimumPasswordLength = 8;

/** The change-password card (accounts with a password): current, new (8+) and repeated; other sessions end. */
export function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [revokeOtherSessions, setRevokeOtherSessions] = useState(true);
  const [revokeApiKeys, setRevokeApiKeys] = useState(false);
  const newError = (submitted || newPassword !== '') && newPassword.length < minimumPasswordLength ? t('settings.password.tooShort', { count: minimumPasswordLength }) : undefined;
  const repeatError = (submitted || repeated !== '') && repeated !== newPassword ? t('settings.password.mismatch') : undefined;
  const currentError = submitted && currentPassword === '' ? t('settings.password.currentRequired') : undefined;

  const change = useMutation({
    mutationFn: () => requestApi<PasswordChanged>('POST', '/me/password', { currentPassword, newPassword, revoke_other_sessions: revokeOtherSessions, revoke_api_keys: revokeApiKeys }),
    onSuccess: (answer) => {
      setCurrentPassword('');
      setNewPassword('');
      setRepeated('');
      setSubmitted(false);
      void queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
      if (answer.disabledApiKeys > 0) void queryClient.invalidateQueries({ queryKey: ['keys'] });
      notifications.show({ color: 'teal', message: t('settings.password.changed', { count: answer.endedSessions }) });
    },
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (currentPassword === '' || newPassword.length < minimumPasswordLength || repeated !== newPassword) return;
    change.mutate();
  }

  return (
    <SettingsSection id="password" title={t('settings.password.title')} description={hasPassword ? t('settings.password.description') : undefined}>
      {hasPassword ? (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm" maw={420}>
            <PasswordInput label={t('settings.password.current')} autoComplete="current-password" value={currentPassword} error={currentError} onChange={(event) => setCurrentPassword(event.currentTarget.value)} />
            <PasswordInput label={t('settings.password.new')} autoComplete="new-password" value={newPassword} error={newError} onChange={(event) => setNewPassword(event.currentTarget.value)} />
            <PasswordInput label={t('settings.password.repeat')} autoComplete="new-password" value={repeated} error={repeatError} onChange={(event) => setRepeated(event.currentTarget.value)} />
            <Checkbox label={t('security.revokeSessions')} checked={revokeOtherSessions} onChange={(event) => setRevokeOtherSessions(event.currentTarget.checked)} />
            <Checkbox label={t('security.revokeApiKeys')} description={t('security.revokeApiKeysHint')} checked={revokeApiKeys} onChange={(event) => setRevokeApiKeys(event.currentTarget.checked)} />
            <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>{t('settings.password.submit')}</Button>
          </Stack>
        </form>
      ) : (
        <Text size="sm" c="dimmed">{t('settings.password.none')}</Text>
      )}
    </SettingsSection>
  );
}
