import { ComingSoonPage } from '../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function AllUsageLogsPage() {
  return <ComingSoonPage labelKey="navigation.allLogs" />;
}
