import { MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { consoleTheme } from './console-theme';

/** Where the chosen light or dark theme is remembered. */
const colorSchemeManager = localStorageColorSchemeManager({ key: 'gateway-console-color-scheme' });

/** What every console page runs inside: theme, translations, the query cache, modals and notifications. */
export function ConsoleProviders({ queryClient, i18n, children }: { queryClient: QueryClient; i18n: i18n; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={consoleTheme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
          <ModalsProvider>
            <Notifications position="top-right" />
            {children}
          </ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
