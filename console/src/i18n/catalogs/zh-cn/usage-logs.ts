import type { Catalog } from '../en';

/** Simplified Chinese strings of the Usage logs pages. */
export const usageLogsChinese: Catalog['usageLogs'] = {
  title: '使用日志',
};
