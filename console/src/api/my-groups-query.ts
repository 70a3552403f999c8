/** The cache key of GET /api/me/groups, shared by the Models and API keys pages and invalidated after a grant. */
export const myGroupsQueryKey = ['my-groups'] as const;

/**
 * How the user's groups are read: again whenever the window regains focus, even within the cache's 10 s, so a
 * group an administrator granted elsewhere shows as soon as the user comes back to the tab.
 */
export const myGroupsQueryOptions = { queryKey: myGroupsQueryKey, refetchOnWindowFocus: 'always' } as const;
