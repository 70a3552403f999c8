import { ComingSoonPage } from '../../pages/coming-soon-page';

/** Placeholder until this page is built. */
export function AuditLogPage() {
  return <ComingSoonPage labelKey="navigation.auditLog" />;
}
