import { render } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { ConsoleApp } from '../app/console-app';
import { createQueryClient } from '../app/create-query-client';
import { createConsoleI18n, type ConsoleLanguage } from '../i18n/create-console-i18n';

/** Renders the whole console at `path` in `language`, as a browser would load it. */
export function renderConsole(path: string, language: ConsoleLanguage = 'en') {
  const history = createMemoryHistory({ initialEntries: [path] });
  const result = render(<ConsoleApp queryClient={createQueryClient()} i18n={createConsoleI18n(language)} history={history} />);
  return { ...result, history };
}
