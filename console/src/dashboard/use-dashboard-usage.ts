import { useQuery } from '@tanstack/react-query';
import { requestApi } from '../api/request-api';
import type { DailyUsageSummary, HourlyUsageSummary } from './dashboard-types';
import { lastUtcDays } from './usage-range';

/** The longest range the dashboard shows, in UTC days; 7 days is the tail of it. */
const longestRangeDays = 30;

/** The daily rollups of the last 30 UTC days (one request; 7 days is cut from it) and the hourly ones of 24 hours. */
export function useDashboardUsage() {
  const days = lastUtcDays(longestRangeDays, Date.now());
  const fromDay = days[0] ?? '';
  const toDay = days[days.length - 1] ?? '';
  const daily = useQuery({
    queryKey: ['usage-summary', 'day', fromDay, toDay],
    queryFn: () => requestApi<DailyUsageSummary>('GET', `/usage/summary?fromDay=${fromDay}&toDay=${toDay}`),
  });
  const hourly = useQuery({
    queryKey: ['usage-summary', 'hour'],
    queryFn: () => requestApi<HourlyUsageSummary>('GET', '/usage/summary?granularity=hour'),
  });
  return { daily, hourly };
}
