import { useInfiniteQuery } from '@tanstack/react-query';
import { requestApi } from '../api/request-api';
import type { UsageLogPage } from './usage-logs-types';

/** Rows per page of the logs table. */
export const usageLogPageSize = 50;

/** The usage logs matching `query` (a query string from buildUsageLogQuery), newest first, a page at a time. */
export function useUsageLogs(query: string) {
  return useInfiniteQuery({
    queryKey: ['usage-logs', query],
    queryFn: ({ pageParam }) => {
      const parameters = new URLSearchParams(query);
      parameters.set('limit', String(usageLogPageSize));
      if (pageParam !== null) parameters.set('cursor', pageParam);
      return requestApi<UsageLogPage>('GET', `/usage/logs?${parameters.toString()}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}
