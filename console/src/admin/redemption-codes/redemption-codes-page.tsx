import { ComingSoonPage } from '../../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function RedemptionCodesPage() {
  return <ComingSoonPage labelKey="navigation.redemptionCodes" />;
}
