import { ComingSoonPage } from '../../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function UsersPage() {
  return <ComingSoonPage labelKey="navigation.users" />;
}
