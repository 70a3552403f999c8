import { Button, Group, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiUser, CurrentSession } from '../api/api-types';
import { requestApi } from '../api/request-api';
import { currentSessionQueryKey } from '../api/use-current-session';
import { SettingsSection } from './settings-section';

/** Longest display name the gateway accepts. */
const displayNameMaxLength = 100;

/** The profile card: the email (read-only) and the display name, saved with PATCH /api/me. */
export function ProfileSection({ user }: { user: ApiUser }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(user.displayName);
  const trimmed = displayName.trim();
  const error = trimmed === '' ? t('settings.profile.displayNameRequired') : undefined;

  const save = useMutation({
    mutationFn: () => requestApi<CurrentSession>('PATCH', '/me', { displayName: trimmed }),
    onSuccess: (session) => {
      queryClient.setQueryData(currentSessionQueryKey, session);
      setDisplayName(session.user?.displayName ?? trimmed);
      notifications.show({ color: 'teal', message: t('settings.profile.saved') });
    },
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (error || trimmed === user.displayName) return;
    save.mutate();
  }

  return (
    <SettingsSection id="profile" title={t('settings.profile.title')}>
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('settings.profile.displayName')}
            value={displayName}
            maxLength={displayNameMaxLength}
            error={error}
            onChange={(event) => setDisplayName(event.currentTarget.value)}
            style={{ flex: '1 1 16rem' }}
          />
          <Button type="submit" loading={save.isPending} disabled={Boolean(error) || trimmed === user.displayName}>
            {t('settings.profile.save')}
          </Button>
        </Group>
      </form>
      <div>
        <Text size="sm" c="dimmed">{t('settings.profile.email')}</Text>
        <Text style={{ overflowWrap: 'anywhere' }}>{user.email}</Text>
      </div>
    </SettingsSection>
  );
}
