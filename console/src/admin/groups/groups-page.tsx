import { ComingSoonPage } from '../../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function GroupsPage() {
  return <ComingSoonPage labelKey="navigation.groups" />;
}
