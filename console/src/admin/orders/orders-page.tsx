import { ComingSoonPage } from '../../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function OrdersPage() {
  return <ComingSoonPage labelKey="navigation.orders" />;
}
