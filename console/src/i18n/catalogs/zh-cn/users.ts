import type { Catalog } from '../en';

/** Simplified Chinese strings of the Users page. */
export const usersChinese: Catalog['users'] = {
  title: '用户',
};
