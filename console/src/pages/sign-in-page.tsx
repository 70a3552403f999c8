import { Alert, Button, Divider, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconBrandGithub, IconLogin } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SetupState, SignInOptions } from '../api/api-types';
import { requestApi } from '../api/request-api';
import { currentSessionQueryKey } from '../api/use-current-session';
import { ErrorState, LoadingState } from '../components/query-state';
import { PublicPageFrame } from '../layout/public-page-frame';
import { safeLocalPath } from './safe-local-path';
import { SecondFactorForm } from './second-factor-form';
import { signInErrorMessage } from './sign-in-error-message';

/** The sign-in page: the configured providers' buttons, and email + password where enabled. */
export function SignInPage({ error, returnTo, secondFactor }: { error?: string; returnTo?: string; secondFactor?: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [awaitingSecondFactor, setAwaitingSecondFactor] = useState(secondFactor === true);
  const options = useQuery({ queryKey: ['auth-providers'], queryFn: () => requestApi<SignInOptions>('GET', '/auth/providers') });
  const setup = useQuery({ queryKey: ['setup'], queryFn: () => requestApi<SetupState>('GET', '/setup') });
  const signIn = useMutation({
    mutationFn: () => requestApi<{ twoFactorRequired?: boolean }>('POST', '/auth/login', { email, password }),
    onSuccess: async (answer) => {
      if (answer.twoFactorRequired) return setAwaitingSecondFactor(true);
      await finishSignIn(returnTo);
    },
  });

  async function finishSignIn(path: string | undefined) {
    await queryClient.invalidateQueries({ queryKey: currentSessionQueryKey });
    await navigate({ to: safeLocalPath(path) });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    signIn.mutate();
  }

  const destination = safeLocalPath(returnTo);
  if (awaitingSecondFactor)
    return (
      <PublicPageFrame title={t('signIn.title')} subtitle={t('signIn.subtitle')}>
        {/* A social sign-in comes back with its own return path; a password sign-in keeps this page's. */}
        <SecondFactorForm onSignedIn={(path) => finishSignIn(secondFactor ? path : returnTo)} />
      </PublicPageFrame>
    );
  return (
    <PublicPageFrame title={t('signIn.title')} subtitle={t('signIn.subtitle')}>
      {error && <Alert color="red" role="alert">{signInErrorMessage(t, error)}</Alert>}
      {setup.data?.open && <Alert color="blue">{t('signIn.setupOpen')}</Alert>}
      {options.isPending && <LoadingState />}
      {options.isError && <ErrorState error={options.error} onRetry={() => void options.refetch()} />}
      {options.data && (
        <Stack gap="sm">
          {options.data.providers.map((provider) => (
            <Button
              key={provider.id}
              component="a"
              href={`${provider.startUrl}${provider.startUrl.includes('?') ? '&' : '?'}returnTo=${encodeURIComponent(destination)}`}
              variant="default"
              leftSection={provider.id === 'github' ? <IconBrandGithub size={18} /> : <IconLogin size={18} />}
            >
              {t('signIn.continueWith', { name: provider.name })}
            </Button>
          ))}
          {options.data.providers.length > 0 && options.data.password && <Divider label={t('signIn.or')} labelPosition="center" />}
          {options.data.password && (
            <form onSubmit={submit} noValidate>
              <Stack gap="sm">
                <TextInput label={t('signIn.email')} type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.currentTarget.value)} />
                <PasswordInput visibilityToggleButtonProps={{ 'aria-label': t('signIn.togglePassword') }} label={t('signIn.password')} autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.currentTarget.value)} />
                {signIn.isError && <Alert color="red" role="alert">{signIn.error.message}</Alert>}
                <Button type="submit" loading={signIn.isPending}>{t('signIn.submit')}</Button>
              </Stack>
            </form>
          )}
          {options.data.providers.length === 0 && !options.data.password && <Alert color="yellow">{t('signIn.noMethods')}</Alert>}
        </Stack>
      )}
    </PublicPageFrame>
  );
}
