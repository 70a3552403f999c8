import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/api-error';

/**
 * The console's query cache: a failed read is retried once unless the gateway answered a 4xx (retrying will not help);
 * reads older than 10 s are read again when the window regains focus.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        // Coming back to the tab reads stale views again: a change made elsewhere (a grant, a top-up) shows without a reload.
        refetchOnWindowFocus: true,
        staleTime: 10_000,
      },
    },
  });
}
