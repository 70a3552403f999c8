import type { QueryClient } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, Outlet, redirect, type RouterHistory } from '@tanstack/react-router';
import { isSignedOut } from '../api/api-error';
import { currentSessionQueryKey, fetchCurrentSession, fetchSessionState } from '../api/use-current-session';
import { ApiKeysPage } from '../keys/api-keys-page';
import { ConsoleShell } from '../layout/console-shell';
import { navigationItems } from '../layout/navigation-items';
import { ComingSoonPage } from '../pages/coming-soon-page';
import { safeLocalPath } from '../pages/safe-local-path';
import { SetupPage } from '../pages/setup-page';
import { SignInPage } from '../pages/sign-in-page';

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
      throw redirect({ to: '/keys' });
    },
  });
  const keysRoute = createRoute({ getParentRoute: () => shellRoute, path: '/keys', component: ApiKeysPage });
  const placeholderRoutes = navigationItems
    .filter((item) => !item.built)
    .map((item) => createRoute({ getParentRoute: () => shellRoute, path: item.path, component: () => <ComingSoonPage labelKey={item.labelKey} /> }));

  const routeTree = rootRoute.addChildren([signInRoute, setupRoute, shellRoute.addChildren([homeRoute, keysRoute, ...placeholderRoutes])]);
  return createRouter({ routeTree, ...(history ? { history } : {}), defaultPreload: false });
}
