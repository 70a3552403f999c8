import { ComingSoonPage } from '../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function ModelsPage() {
  return <ComingSoonPage labelKey="navigation.models" />;
}
