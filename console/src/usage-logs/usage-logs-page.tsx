import { ComingSoonPage } from '../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function UsageLogsPage() {
  return <ComingSoonPage labelKey="navigation.usageLogs" />;
}
