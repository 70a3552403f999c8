import type { QueryClient } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect, type RouteComponent, type RouterHistory } from '@tanstack/react-router';
import { isSignedOut } from '../api/api-error';
import { currentSessionQueryKey, fetchCurrentSession, fetchSessionState } from '../api/use-current-session';
import type { CurrentSession } from '../api/api-types';
import { ApiKeysPage } from '../keys/api-keys-page';
import { ConsoleShell } from '../layout/console-shell';
import { safeLocalPath } from '../pages/safe-local-path';
import { SetupPage } from '../pages/setup-page';
import { SignInPage } from '../pages/sign-in-page';
import { TopUpReturnPage } from '../top-up/top-up-return-page';

/** A search parameter as a string, or undefined when absent or not a string. */
function stringParameter(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Builds the console's routes: sign-in and setup outside the shell, every signed-in page inside it. */
export function createConsoleRouter(queryClient: QueryClient, history?: RouterHistory) {
  const rootRoute = createRootRoute({ component: Outlet });
  const signInRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/sign-in',
    validateSearch: (search: Record<string, unknown>): { error?: string; returnTo?: string; second_factor?: string } => ({
      error: stringParameter(search.error),
      returnTo: stringParameter(search.returnTo),
      // The router reads `?second_factor=1` as a number: only its presence matters.
      second_factor: search.second_factor === undefined ? undefined : String(search.second_factor),
    }),
    // Already signed in: straight on, unless a provider's callback came back with an error to show (e.g. linking).
    beforeLoad: async ({ search }) => {
      if (search.error === undefined && (await fetchSessionState()).signedIn) throw redirect({ to: safeLocalPath(search.returnTo) });
    },
    component: function SignInRoute() {
      const search = signInRoute.useSearch();
      return <SignInPage error={search.error} returnTo={search.returnTo} secondFactor={search.second_factor !== undefined} />;
    },
  });
  const setupRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/setup',
    validateSearch: (search: Record<string, unknown>): { token?: string } => ({ token: stringParameter(search.token) }),
    component: function SetupRoute() {
      return <SetupPage token={setupRoute.useSearch().token} />;
    },
  });
  const shellRoute = createRoute({
    getParentRoute: () => rootRoute,
    id: 'shell',
    // Nobody signed in: off to sign-in before any page renders, remembering where they were going.
    beforeLoad: async ({ location }) => {
      const signInFirst = () => redirect({ to: '/sign-in', search: { returnTo: location.href } });
      if (!queryClient.getQueryData(currentSessionQueryKey) && !(await fetchSessionState()).signedIn) throw signInFirst();
      try {
        await queryClient.ensureQueryData({ queryKey: currentSessionQueryKey, queryFn: fetchCurrentSession, retry: false });
      } catch (error) {
        if (isSignedOut(error)) throw signInFirst();
        throw error;
      }
    },
    component: ConsoleShell,
  });
  const homeRoute = createRoute({
    getParentRoute: () => shellRoute,
    path: '/',
    beforeLoad: () => {
      throw redirect({ to: '/dashboard' });
    },
  });
  const page = (path: string, component: RouteComponent) => createRoute({ getParentRoute: () => shellRoute, path, component });
  const topUpReturnRoute = createRoute({
    getParentRoute: () => shellRoute,
    path: '/top-up/return',
    validateSearch: (search: Record<string, unknown>): { order?: string } => ({ order: stringParameter(search.order) }),
    component: function TopUpReturnRoute() {
      return <TopUpReturnPage order={topUpReturnRoute.useSearch().order} />;
    },
  });
  // Operator pages: someone without the admin role is sent to their dashboard (the /api refuses them anyway).
  const adminRoute = createRoute({
    getParentRoute: () => shellRoute,
    id: 'admin',
    beforeLoad: () => {
      if (queryClient.getQueryData<CurrentSession>(currentSessionQueryKey)?.isAdmin !== true) throw redirect({ to: '/dashboard' });
    },
    component: Outlet,
  });
  const adminPage = (path: string, component: RouteComponent) => createRoute({ getParentRoute: () => adminRoute, path, component });

  const routeTree = rootRoute.addChildren([
    signInRoute,
    setupRoute,
    shellRoute.addChildren([
      homeRoute,
      page('/dashboard', lazyRouteComponent(() => import('../dashboard/dashboard-page'), 'DashboardPage')),
      page('/keys', ApiKeysPage),
      page('/top-up', lazyRouteComponent(() => import('../top-up/top-up-page'), 'TopUpPage')),
      topUpReturnRoute,
      page('/logs', lazyRouteComponent(() => import('../usage-logs/usage-logs-page'), 'UsageLogsPage')),
      page('/ledger', lazyRouteComponent(() => import('../ledger/ledger-page'), 'LedgerPage')),
      page('/models', lazyRouteComponent(() => import('../models/models-page'), 'ModelsPage')),
      page('/settings', lazyRouteComponent(() => import('../settings/settings-page'), 'SettingsPage')),
      adminRoute.addChildren([
        adminPage('/admin/users', lazyRouteComponent(() => import('../admin/users/users-page'), 'UsersPage')),
        adminPage('/admin/groups', lazyRouteComponent(() => import('../admin/groups/groups-page'), 'GroupsPage')),
        adminPage('/admin/channels', lazyRouteComponent(() => import('../admin/channels/channels-page'), 'ChannelsPage')),
        adminPage('/admin/orders', lazyRouteComponent(() => import('../admin/orders/orders-page'), 'OrdersPage')),
        adminPage('/admin/redemption-codes', lazyRouteComponent(() => import('../admin/redemption-codes/redemption-codes-page'), 'RedemptionCodesPage')),
        adminPage('/admin/logs', lazyRouteComponent(() => import('../usage-logs/all-usage-logs-page'), 'AllUsageLogsPage')),
        adminPage('/admin/audit-log', lazyRouteComponent(() => import('../admin/audit-log/audit-log-page'), 'AuditLogPage')),
        adminPage('/admin/status', lazyRouteComponent(() => import('../admin/status/status-page'), 'StatusPage')),
      ]),
    ]),
  ]);
  return createRouter({ routeTree, ...(history ? { history } : {}), defaultPreload: false });
}
