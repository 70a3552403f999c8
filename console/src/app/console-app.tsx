import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import type { i18n } from 'i18next';
import { useState } from 'react';
import { ConsoleProviders } from './console-providers';
import { createConsoleRouter } from './create-console-router';

/** The whole console: providers around the router. `history` is a memory history in tests. */
export function ConsoleApp({ queryClient, i18n, history }: { queryClient: QueryClient; i18n: i18n; history?: RouterHistory }) {
  const [router] = useState(() => createConsoleRouter(queryClient, history));
  return (
    <ConsoleProviders queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </ConsoleProviders>
  );
}
