/** The query keys of the Groups & prices page's lists. */
export const groupsQueryKeys = {
  groups: ['admin', 'groups'],
  prices: ['admin', 'prices'],
  catalogEntries: ['admin', 'catalog-entries'],
} as const;
