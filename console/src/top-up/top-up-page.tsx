import { ComingSoonPage } from '../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function TopUpPage() {
  return <ComingSoonPage labelKey="navigation.topUp" />;
}
