import { ComingSoonPage } from '../../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function ChannelsPage() {
  return <ComingSoonPage labelKey="navigation.channels" />;
}
