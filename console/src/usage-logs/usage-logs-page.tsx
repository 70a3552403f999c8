import { UsageLogsView } from './usage-logs-view';

/** Usage logs (/logs): the caller's own requests, filtered, paged, explained and exported. */
export function UsageLogsPage() {
  return <UsageLogsView scope="mine" />;
}
