import type { Catalog } from '../en';

/** Simplified Chinese strings of the Status page. */
export const statusChinese: Catalog['status'] = {
  title: '状态',
};
