import { Button, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiUser } from '../../api/api-types';
import { requestApi } from '../../api/request-api';
import { usersQueryKey } from './users-types';

/** Shortest password the gateway accepts. */
const minimumPasswordLength = 8;
/** Enough of an email to catch typing slips; the gateway checks it properly. */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Creates a user (POST /api/users): email, optional display name and password (8+), role. */
export function CreateUserForm({ onCreated }: { onCreated: (user: ApiUser) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<'user' | 'admin'>('user');
  const [submitted, setSubmitted] = useState(false);
  const emailError = submitted && !emailPattern.test(email.trim()) ? t('users.create.emailInvalid') : undefined;
  const passwordError = password !== '' && password.length < minimumPasswordLength ? t('users.create.passwordTooShort', { count: minimumPasswordLength }) : undefined;

  const create = useMutation({
    mutationFn: () =>
      requestApi<ApiUser>('POST', '/users', {
        email: email.trim(),
        role,
        ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
        ...(password ? { password } : {}),
      }),
    onSuccess: (user) => {
      notifications.show({ color: 'teal', message: t('users.create.done', { email: user.email }) });
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
      onCreated(user);
    },
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!emailPattern.test(email.trim()) || passwordError) return;
    create.mutate();
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label={t('users.create.email')} type="email" required value={email} error={emailError} onChange={(event) => setEmail(event.currentTarget.value)} />
        <TextInput label={t('users.create.displayName')} value={displayName} onChange={(event) => setDisplayName(event.currentTarget.value)} />
        <PasswordInput label={t('users.create.password')} description={t('users.create.passwordHint')} autoComplete="new-password" value={password} error={passwordError} onChange={(event) => setPassword(event.currentTarget.value)} />
        <Select
          label={t('users.create.role')}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data={[{ value: 'user', label: t('users.roles.user') }, { value: 'admin', label: t('users.roles.admin') }]}
          value={role}
          onChange={(value) => setRole(value === 'admin' ? 'admin' : 'user')}
        />
        <Button type="submit" loading={create.isPending}>{t('users.create.submit')}</Button>
      </Stack>
    </form>
  );
}
