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
}

/** The console's pages in navigation order; admin items show to administrators only. */
export const navigationItems: readonly NavigationItem[] = [
  { path: '/dashboard', labelKey: 'navigation.dashboard', icon: IconGauge, section: 'user' },
  { path: '/keys', labelKey: 'navigation.apiKeys', icon: IconKey, section: 'user' },
  { path: '/top-up', labelKey: 'navigation.topUp', icon: IconCoin, section: 'user' },
  { path: '/logs', labelKey: 'navigation.usageLogs', icon: IconList, section: 'user' },
  { path: '/ledger', labelKey: 'navigation.ledger', icon: IconBuildingBank, section: 'user' },
  { path: '/models', labelKey: 'navigation.models', icon: IconStack2, section: 'user' },
  { path: '/settings', labelKey: 'navigation.settings', icon: IconSettings, section: 'user' },
  { path: '/admin/users', labelKey: 'navigation.users', icon: IconUsers, section: 'admin' },
  { path: '/admin/groups', labelKey: 'navigation.groups', icon: IconChartBar, section: 'admin' },
  { path: '/admin/channels', labelKey: 'navigation.channels', icon: IconServer, section: 'admin' },
  { path: '/admin/orders', labelKey: 'navigation.orders', icon: IconReceipt, section: 'admin' },
  { path: '/admin/redemption-codes', labelKey: 'navigation.redemptionCodes', icon: IconTicket, section: 'admin' },
  { path: '/admin/logs', labelKey: 'navigation.allLogs', icon: IconListDetails, section: 'admin' },
  { path: '/admin/audit-log', labelKey: 'navigation.auditLog', icon: IconFileText, section: 'admin' },
  { path: '/admin/status', labelKey: 'navigation.status', icon: IconShieldCheck, section: 'admin' },
];

/** The navigation items a caller sees: admin items only for administrators. */
export function visibleNavigationItems(isAdmin: boolean): NavigationItem[] {
  return navigationItems.filter((item) => item.section === 'user' || isAdmin);
}
