import { ComingSoonPage } from '../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function DashboardPage() {
  return <ComingSoonPage labelKey="navigation.dashboard" />;
}
