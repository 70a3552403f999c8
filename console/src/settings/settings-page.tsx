import { Alert, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { requestApi } from '../api/request-api';
import { useCurrentSession } from '../api/use-current-session';
import { PageHeader } from '../components/page-header';
import { ErrorState, LoadingState } from '../components/query-state';
import { IdentitiesSection } from './identities-section';
import { PasswordSection } from './password-section';
import { PreferencesSection } from './preferences-section';
import { ProfileSection } from './profile-section';
import { SecuritySection } from './security-section';
import { SessionsSection } from './sessions-section';
import { identitiesQueryKey } from './settings-query-keys';
import type { IdentityList } from './settings-types';

/** The Settings page: profile, password, linked identities, sessions, language and theme. */
export function SettingsPage() {
  const { t } = useTranslation();
  const session = useCurrentSession();
  const identities = useQuery({ queryKey: identitiesQueryKey, queryFn: () => requestApi<IdentityList>('GET', '/me/identities'), enabled: Boolean(session.data?.user) });
  const user = session.data?.user;

  let account;
  if (session.isPending) account = <LoadingState />;
  else if (session.isError) account = <ErrorState error={session.error} onRetry={() => void session.refetch()} />;
  else if (!user) account = <Alert color="blue" variant="light">{t('settings.adminToken')}</Alert>;
  else {
    account = (
      <>
        {/* Keyed by the saved name, so the form starts again from what the gateway stored. */}
        <ProfileSection key={user.displayName} user={user} />
        {identities.data && <PasswordSection hasPassword={identities.data.hasPassword} />}
        <SecuritySection />
        <IdentitiesSection />
        <SessionsSection />
      </>
    );
  }

  return (
    <Stack gap="md">
      <PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
      {account}
      <PreferencesSection />
    </Stack>
  );
}
