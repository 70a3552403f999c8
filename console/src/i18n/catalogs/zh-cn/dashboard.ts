import type { Catalog } from '../en';

/** Simplified Chinese strings of the Dashboard page. */
export const dashboardChinese: Catalog['dashboard'] = {
  title: '仪表盘',
};
