import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/console-app';
import { createQueryClient } from './app/create-query-client';
import { createConsoleI18n } from './i18n/create-console-i18n';

const root = document.getElementById('root');
if (!root) throw new Error('The console page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <ConsoleApp queryClient={createQueryClient()} i18n={createConsoleI18n()} />
  </StrictMode>,
);
