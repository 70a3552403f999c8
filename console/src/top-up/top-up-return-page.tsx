import { ComingSoonPage } from '../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function TopUpReturnPage(_props: { order?: string }) {
  return <ComingSoonPage labelKey="navigation.topUp" />;
}
