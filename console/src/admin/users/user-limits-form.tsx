import { Button, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../../api/request-api';
import { parseLimit } from './parse-signed-amount';
import { usersQueryKey, type AdminUser, type UserLimits } from './users-types';

/** The limits a user has, in the order the form shows them. */
const limitNames = ['requestsPerMinute', 'tokensPerMinute', 'maxConcurrentRequests'] as const;

/** Per-user limits (PUT /api/users/:id/limits): blank = the configured default, 0 = unlimited. */
export function UserLimitsForm({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [texts, setTexts] = useState<Record<keyof UserLimits, string>>({
    requestsPerMinute: String(user.limits.requestsPerMinute ?? ''),
    tokensPerMinute: String(user.limits.tokensPerMinute ?? ''),
    maxConcurrentRequests: String(user.limits.maxConcurrentRequests ?? ''),
  });
  const parsed = { requestsPerMinute: parseLimit(texts.requestsPerMinute), tokensPerMinute: parseLimit(texts.tokensPerMinute), maxConcurrentRequests: parseLimit(texts.maxConcurrentRequests) };
  const valid = limitNames.every((name) => parsed[name] !== undefined);

  const save = useMutation({
    mutationFn: (limits: UserLimits) => requestApi('PUT', `/users/${encodeURIComponent(user.id)}/limits`, limits),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t('users.limits.saved') });
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const { requestsPerMinute, tokensPerMinute, maxConcurrentRequests } = parsed;
    if (requestsPerMinute === undefined || tokensPerMinute === undefined || maxConcurrentRequests === undefined) return;
    save.mutate({ requestsPerMinute, tokensPerMinute, maxConcurrentRequests });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          {limitNames.map((name) => (
            <TextInput
              key={name}
              label={t(`users.limits.${name}`)}
              placeholder={t('users.limits.default')}
              inputMode="numeric"
              value={texts[name]}
              error={parsed[name] === undefined ? t('users.limits.invalid') : undefined}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setTexts((previous) => ({ ...previous, [name]: value }));
              }}
            />
          ))}
        </SimpleGrid>
        <Text size="xs" c="dimmed">{t('users.limits.hint')}</Text>
        <Button type="submit" loading={save.isPending} disabled={!valid} style={{ alignSelf: 'flex-start' }}>{t('users.limits.save')}</Button>
      </Stack>
    </form>
  );
}
