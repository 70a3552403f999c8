import { AppShell, Burger, Button, Divider, Group, NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { isSignedOut } from '../api/api-error';
import { requestApi } from '../api/request-api';
import { useCurrentSession } from '../api/use-current-session';
import { ErrorState, LoadingState } from '../components/query-state';
import { visibleNavigationItems, type NavigationItem } from './navigation-items';
import { PreferenceControls } from './preference-controls';

/** The signed-in frame: header with preferences and sign-out, navigation (user and admin sections), the page. */
export function ConsoleShell() {
  const { t } = useTranslation();
  const session = useCurrentSession();
  const location = useLocation();
  const [navigationOpen, { toggle: toggleNavigation, close: closeNavigation }] = useDisclosure(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  if (session.isPending) return <LoadingState />;
  if (session.isError) {
    // The session ended while a page was open (the route checked it before): sign in again.
    if (isSignedOut(session.error)) return <Navigate to="/sign-in" replace />;
    return <ErrorState error={session.error} onRetry={() => void session.refetch()} />;
  }
  const { user, isAdmin } = session.data;
  const items = visibleNavigationItems(isAdmin);

  async function signOut() {
    await requestApi('POST', '/auth/logout').catch(() => undefined);
    // Leave first, then forget what the signed-in pages read: cleared while this shell is still mounted, its session
    // query would ask GET /api/me again and get a 401 (an error in the browser's console). The sign-in page's own
    // public queries stay.
    await navigate({ to: '/sign-in' });
    queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
  }

  const renderItems = (section: NavigationItem['section']) =>
    items
      .filter((item) => item.section === section)
      .map((item) => (
        <NavLink
          key={item.path}
          component={Link}
          to={item.path}
          label={t(item.labelKey)}
          leftSection={<item.icon size={18} stroke={1.6} />}
          active={location.pathname === item.path}
          onClick={closeNavigation}
          py={6}
        />
      ));

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !navigationOpen } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navigationOpen} onClick={toggleNavigation} hiddenFrom="sm" size="sm" aria-label={t('navigation.open')} />
            <Title order={4}>{t('app.name')}</Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="sm" data-testid="signed-in-as">
              {user?.email ?? t('navigation.adminToken')}
            </Text>
            <PreferenceControls />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('navigation.label')}>
        {/* One scrolling column with Sign out after the last item: a pinned Sign out covered the last admin items at 1280x800. */}
        <AppShell.Section grow component={ScrollArea} type="auto" scrollbars="y">
          <Stack gap={0}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="xs" pb={4}>{t('navigation.userSection')}</Text>
            {renderItems('user')}
            {isAdmin && (
              <>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>{t('navigation.adminSection')}</Text>
                {renderItems('admin')}
              </>
            )}
            <Divider my="xs" />
            <Button variant="subtle" color="gray" fullWidth justify="flex-start" leftSection={<IconLogout size={18} />} onClick={() => void signOut()}>
              {t('navigation.signOut')}
            </Button>
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
