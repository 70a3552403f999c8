import { useLocation, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo } from 'react';
import { readUsageLogFilters, writeUsageLogFilters, type UsageLogFilters } from './usage-log-filters';

/** The page's filters, kept in its URL search parameters (shareable, survive a reload), and a setter. */
export function useUsageLogFilters(): [UsageLogFilters, (filters: UsageLogFilters) => void] {
  const search: Record<string, unknown> = useSearch({ strict: false });
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const serialized = JSON.stringify(readUsageLogFilters(search));
  // One object per distinct set of filters, so what depends on them does not change on every render.
  const filters = useMemo(() => JSON.parse(serialized) as UsageLogFilters, [serialized]);
  const setFilters = (next: UsageLogFilters) => void navigate({ to: pathname, search: writeUsageLogFilters(next), replace: true });
  return [filters, setFilters];
}
