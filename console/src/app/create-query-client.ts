import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/api-error';

/** The console's query cache: a failed read is retried once unless the gateway answered a 4xx (retrying will not help). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
        staleTime: 10_000,
      },
    },
  });
}
