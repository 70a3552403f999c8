import { Alert, Button, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconBrandGithub, IconKey } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SignInOptions, SignInProvider } from '../api/api-types';
import { requestApi } from '../api/request-api';
import { EmptyState, ErrorState, LoadingState } from '../components/query-state';
import { formatDateTime } from '../format/format-date-time';
import { canUnlinkIdentity } from './identity-removal';
import { openProviderPage } from './open-provider-page';
import { identitiesQueryKey } from './settings-query-keys';
import { SettingsSection } from './settings-section';
import type { IdentityLinkStart, IdentityList, LinkedIdentity } from './settings-types';

/** How long a newly linked identity is pointed out, in milliseconds: long enough to notice a link you did not make. */
const recentLinkMs = 24 * 3_600_000;

/** The linked-identities card: each identity with unlink (confirmed; never the last way in), and a link button per provider. */
export function IdentitiesSection() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const identities = useQuery({ queryKey: identitiesQueryKey, queryFn: () => requestApi<IdentityList>('GET', '/me/identities') });
  const providers = useQuery({ queryKey: ['auth-providers'], queryFn: () => requestApi<SignInOptions>('GET', '/auth/providers') });
  const providerNames = new Map((providers.data?.providers ?? []).map((provider) => [provider.id, provider.name]));
  const providerName = (identity: LinkedIdentity) => providerNames.get(identity.provider) ?? (identity.provider === 'github' ? 'GitHub' : 'OpenID Connect');

  const unlink = useMutation({
    mutationFn: (identity: LinkedIdentity) => requestApi('DELETE', `/me/identities/${encodeURIComponent(identity.id)}`),
    onSuccess: () => notifications.show({ color: 'teal', message: t('settings.identities.unlinked') }),
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: identitiesQueryKey }),
  });

  // A POST (checked as same-origin by the gateway), then off to the provider; the callback brings the browser back here.
  const link = useMutation({
    mutationFn: (provider: SignInProvider) => requestApi<IdentityLinkStart>('POST', '/me/identities/link', { provider: provider.id, returnTo: '/settings' }),
    onSuccess: (started) => openProviderPage(started.authorizationUrl),
    onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
  });

  function confirmLink(provider: SignInProvider) {
    modals.openConfirmModal({
      title: t('settings.identities.linkTitle', { provider: provider.name }),
      children: <Text size="sm">{t('settings.identities.linkBody', { provider: provider.name })}</Text>,
      labels: { confirm: t('settings.identities.linkConfirm', { provider: provider.name }), cancel: t('settings.cancel') },
      onConfirm: () => link.mutate(provider),
    });
  }

  function confirmUnlink(identity: LinkedIdentity) {
    modals.openConfirmModal({
      title: t('settings.identities.unlinkTitle', { provider: providerName(identity) }),
      children: <Text size="sm">{t('settings.identities.unlinkBody', { name: identity.email ?? identity.displayName })}</Text>,
      labels: { confirm: t('settings.identities.unlink'), cancel: t('settings.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => unlink.mutate(identity),
    });
  }

  let content;
  if (identities.isPending) content = <LoadingState />;
  else if (identities.isError) content = <ErrorState error={identities.error} onRetry={() => void identities.refetch()} />;
  else {
    const removable = canUnlinkIdentity(identities.data);
    content = identities.data.data.length === 0 ? (
      <EmptyState title={t('settings.identities.empty')} hint={t('settings.identities.emptyHint')} />
    ) : (
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {(['provider', 'account', 'linked', 'lastUsed', 'actions'] as const).map((column) => (
                <Table.Th key={column}>{t(`settings.identities.columns.${column}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {identities.data.data.map((identity) => (
              <Table.Tr key={identity.id}>
                <Table.Td>{providerName(identity)}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{identity.email ? `${identity.displayName} · ${identity.email}` : identity.displayName}</Table.Td>
                <Table.Td>{formatDateTime(identity.createdAt, i18n.language)}</Table.Td>
                <Table.Td>{identity.lastUsedAt ? formatDateTime(identity.lastUsedAt, i18n.language) : t('settings.never')}</Table.Td>
                <Table.Td>
                  <Tooltip label={t('settings.identities.lastWayIn')} disabled={removable}>
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      disabled={!removable}
                      loading={unlink.isPending && unlink.variables?.id === identity.id}
                      aria-label={t('settings.identities.unlinkNamed', { provider: providerName(identity) })}
                      onClick={() => confirmUnlink(identity)}
                    >
                      {t('settings.identities.unlink')}
                    </Button>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
    const recent = identities.data.data.filter((identity) => Date.now() - identity.createdAt < recentLinkMs);
    if (recent.length > 0) {
      const names = recent.map((identity) => `${providerName(identity)} (${identity.email ?? identity.displayName})`).join(', ');
      content = (
        <Stack gap="sm">
          <Alert color="yellow" variant="light" data-testid="recently-linked">{t('settings.identities.linkedRecently', { names })}</Alert>
          {content}
        </Stack>
      );
    }
    if (!removable && identities.data.data.length > 0) {
      content = (
        <Stack gap="sm">
          {content}
          <Alert color="blue" variant="light">{t('settings.identities.lastWayIn')}</Alert>
        </Stack>
      );
    }
  }

  const linkable = providers.data?.providers ?? [];
  return (
    <SettingsSection id="identities" title={t('settings.identities.title')} description={t('settings.identities.description')}>
      {content}
      {linkable.length > 0 && (
        <Group gap="xs">
          {linkable.map((provider) => (
            <Button
              key={provider.id}
              variant="default"
              loading={link.isPending && link.variables?.id === provider.id}
              onClick={() => confirmLink(provider)}
              leftSection={provider.id === 'github' ? <IconBrandGithub size={16} /> : <IconKey size={16} />}
            >
              {t('settings.identities.link', { provider: provider.name })}
            </Button>
          ))}
        </Group>
      )}
    </SettingsSection>
  );
}
