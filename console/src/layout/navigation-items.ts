import {
  IconBuildingBank, IconChartBar, IconCoin, IconFileText, IconGauge, IconKey, IconList, IconListDetails, IconReceipt,
  IconServer, IconSettings, IconShieldCheck, IconStack2, IconTicket, IconUsers, type Icon,
} from '@tabler/icons-react';

/** Which navigation section an item belongs to: every user's pages, or the operator's. */
export type NavigationSection = 'user' | 'admin';

/** One entry of the console's navigation. */
export interface NavigationItem {
  /** the route's path */
  path: string;
  /** the i18n key of its label */
  labelKey: string;
  icon: Icon;
  section: NavigationSection;
  /** false while the page is still a placeholder (a later slice of the console builds it) */
  built: boolean;
}

/** The console's pages in navigation order; admin items show to administrators only. */
export const navigationItems: readonly NavigationItem[] = [
  { path: '/dashboard', labelKey: 'navigation.dashboard', icon: IconGauge, section: 'user', built: false },
  { path: '/keys', labelKey: 'navigation.apiKeys', icon: IconKey, section: 'user', built: true },
  { path: '/top-up', labelKey: 'navigation.topUp', icon: IconCoin, section: 'user', built: false },
  { path: '/logs', labelKey: 'navigation.usageLogs', icon: IconList, section: 'user', built: false },
  { path: '/ledger', labelKey: 'navigation.ledger', icon: IconBuildingBank, section: 'user', built: false },
  { path: '/models', labelKey: 'navigation.models', icon: IconStack2, section: 'user', built: false },
  { path: '/settings', labelKey: 'navigation.settings', icon: IconSettings, section: 'user', built: false },
  { path: '/admin/users', labelKey: 'navigation.users', icon: IconUsers, section: 'admin', built: false },
  { path: '/admin/groups', labelKey: 'navigation.groups', icon: IconChartBar, section: 'admin', built: false },
  { path: '/admin/channels', labelKey: 'navigation.channels', icon: IconServer, section: 'admin', built: false },
  { path: '/admin/orders', labelKey: 'navigation.orders', icon: IconReceipt, section: 'admin', built: false },
  { path: '/admin/redemption-codes', labelKey: 'navigation.redemptionCodes', icon: IconTicket, section: 'admin', built: false },
  { path: '/admin/logs', labelKey: 'navigation.allLogs', icon: IconListDetails, section: 'admin', built: false },
  { path: '/admin/audit-log', labelKey: 'navigation.auditLog', icon: IconFileText, section: 'admin', built: false },
  { path: '/admin/status', labelKey: 'navigation.status', icon: IconShieldCheck, section: 'admin', built: false },
];

/** The navigation items a caller sees: admin items only for administrators. */
export function visibleNavigationItems(isAdmin: boolean): NavigationItem[] {
  return navigationItems.filter((item) => item.section === 'user' || isAdmin);
}
