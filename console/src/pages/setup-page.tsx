import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SetupState } from '../api/api-types';
import { requestApi } from '../api/request-api';
import { currentSessionQueryKey } from '../api/use-current-session';
import { ErrorState, LoadingState } from '../components/query-state';
import { PublicPageFrame } from '../layout/public-page-frame';

/** Shortest password the gateway accepts (docs/API.md, POST /api/setup). */
const minimumPasswordLength = 8;

/** The first-run page (`/setup?token=`): creates the first administrator and signs them in. */
export function SetupPage({ token }: { token?: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const setup = useQuery({ queryKey: ['setup'], queryFn: () => requestApi<SetupState>('GET', '/setup') });
  const create = useMutation({
    mutationFn: () => requestApi('POST', '/setup', { token, email: email.trim(), password, ...(displayName.trim() ? { displayName: displayName.trim() } : {}) }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: currentSessionQueryKey });
      await navigate({ to: '/dashboard' });
    },
  });
  const emailError = touched && !/^[^\s@]+@[^\s@]+$/.test(email.trim()) ? t('setup.emailInvalid') : undefined;
  const passwordError = touched && password.length < minimumPasswordLength ? t('setup.passwordTooShort') : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim()) || password.length < minimumPasswordLength) return;
    create.mutate();
  }

  const signInLink = <Button component={Link} to="/sign-in" variant="light">{t('setup.goToSignIn')}</Button>;
  let content;
  if (setup.isPending) content = <LoadingState />;
  else if (setup.isError) content = <ErrorState error={setup.error} onRetry={() => void setup.refetch()} />;
  else if (!setup.data.open) content = <Stack><Alert color="blue">{t('setup.closed')}</Alert>{signInLink}</Stack>;
  else if (!token) content = <Alert color="yellow">{t('setup.missingToken')}</Alert>;
  else {
    content = (
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('setup.email')} type="email" autoComplete="username" required value={email} error={emailError} onChange={(event) => setEmail(event.currentTarget.value)} />
          <TextInput label={t('setup.displayName')} autoComplete="name" value={displayName} onChange={(event) => setDisplayName(event.currentTarget.value)} />
          <PasswordInput visibilityToggleButtonProps={{ 'aria-label': t('signIn.togglePassword') }} label={t('setup.password')} description={t('setup.passwordHint')} autoComplete="new-password" required value={password} error={passwordError} onChange={(event) => setPassword(event.currentTarget.value)} />
          {create.isError && <Alert color="red" role="alert">{create.error.message}</Alert>}
          <Button type="submit" loading={create.isPending}>{t('setup.submit')}</Button>
        </Stack>
      </form>
    );
  }
  return <PublicPageFrame title={t('setup.title')} subtitle={t('setup.subtitle')}>{content}</PublicPageFrame>;
}
