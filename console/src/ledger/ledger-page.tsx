import { ComingSoonPage } from '../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function LedgerPage() {
  return <ComingSoonPage labelKey="navigation.ledger" />;
}
