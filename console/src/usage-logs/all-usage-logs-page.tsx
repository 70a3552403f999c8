import { UsageLogsView } from './usage-logs-view';

/** All usage logs (/admin/logs, administrators): everyone's requests, with a user filter and a user column. */
export function AllUsageLogsPage() {
  return <UsageLogsView scope="all" />;
}
