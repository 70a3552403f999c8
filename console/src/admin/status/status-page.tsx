import { ComingSoonPage } from '../../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function StatusPage() {
  return <ComingSoonPage labelKey="navigation.status" />;
}
