import { useInfiniteQuery } from '@tanstack/react-query';
import type { CursorPage } from './api-types';
import { requestApi } from './request-api';

/**
 * Reads a newest-first /api list page by page (`limit`, then `cursor=nextCursor`): the rows read so far, whether
 * more exist, and a function that reads the next page.
 */
export function useCursorList<Item>(queryKey: readonly unknown[], path: string, limit: number, enabled = true) {
  const query = useInfiniteQuery({
    queryKey,
    enabled,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => requestApi<CursorPage<Item>>('GET', `${path}?${new URLSearchParams({ limit: String(limit), ...(pageParam ? { cursor: pageParam } : {}) })}`),
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
  return { ...query, rows: query.data?.pages.flatMap((page) => page.data) ?? [] };
}
