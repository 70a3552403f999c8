import type { ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, Outlet, redirect, type RouterHistory } from '@tanstack/react-router';
import { isSignedOut } from '../api/api-error';
import { currentSessionQueryKey, fetchCurrentSession, fetchSessionState } from '../api/use-current-session';
import type { CurrentSession } from '../api/api-types';
import { AuditLogPage } from '../admin/audit-log/audit-log-page';
import { ChannelsPage } from '../admin/channels/channels-page';
import { GroupsPage } from '../admin/groups/groups-page';
import { OrdersPage } from '../admin/orders/orders-page';
import { RedemptionCodesPage } from '../admin/redemption-codes/redemption-codes-page';
import { StatusPage } from '../admin/status/status-page';
import { UsersPage } from '../admin/users/users-page';
import { DashboardPage } from '../dashboard/dashboard-page';
import { ApiKeysPage } from '../keys/api-keys-page';
import { ConsoleShell } from '../layout/console-shell';
import { LedgerPage } from '../ledger/ledger-page';
import { ModelsPage } from '../models/models-page';
import { safeLocalPath } from '../pages/safe-local-path';
import { SetupPage } from '../pages/setup-page';
import { SignInPage } from '../pages/sign-in-page';
import { SettingsPage } from '../settings/settings-page';
import { TopUpPage } from '../top-up/top-up-page';
import { TopUpReturnPage } from '../top-up/top-up-return-page';
import { AllUsageLogsPage } from '../usage-logs/all-usage-logs-page';
import { UsageLogsPage } from '../usage-logs/usage-logs-page';

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
    validateSearch: (search: Record<string, unknown>): { error?: string; returnTo?: string } => ({
      error: stringParameter(search.error),
      returnTo: stringParameter(search.returnTo),
    }),
    // Already signed in: straight on, unless a provider's callback came back with an error to show (e.g. linking).
    beforeLoad: async ({ search }) => {
      if (search.error === undefined && (await fetchSessionState()).signedIn) throw redirect({ to: safeLocalPath(search.returnTo) });
    },
    component: function SignInRoute() {
      const search = signInRoute.useSearch();
      return <SignInPage error={search.error} returnTo={search.returnTo} />;
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
  const page = (path: string, component: () => ReactNode) => createRoute({ getParentRoute: () => shellRoute, path, component });
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
  const adminPage = (path: string, component: () => ReactNode) => createRoute({ getParentRoute: () => adminRoute, path, component });

  const routeTree = rootRoute.addChildren([
    signInRoute,
    setupRoute,
    shellRoute.addChildren([
      homeRoute,
      page('/dashboard', DashboardPage),
      page('/keys', ApiKeysPage),
      page('/top-up', TopUpPage),
      topUpReturnRoute,
      page('/logs', UsageLogsPage),
      page('/ledger', LedgerPage),
      page('/models', ModelsPage),
      page('/settings', SettingsPage),
      adminRoute.addChildren([
        adminPage('/admin/users', UsersPage),
        adminPage('/admin/groups', GroupsPage),
        adminPage('/admin/channels', ChannelsPage),
        adminPage('/admin/orders', OrdersPage),
        adminPage('/admin/redemption-codes', RedemptionCodesPage),
        adminPage('/admin/logs', AllUsageLogsPage),
        adminPage('/admin/audit-log', AuditLogPage),
        adminPage('/admin/status', StatusPage),
      ]),
    ]),
  ]);
  return createRouter({ routeTree, ...(history ? { history } : {}), defaultPreload: false });
}
