import { ComingSoonPage } from '../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function SettingsPage() {
  return <ComingSoonPage labelKey="navigation.settings" />;
}
