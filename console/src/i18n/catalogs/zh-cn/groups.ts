import type { Catalog } from '../en';

/** Simplified Chinese strings of the Groups & prices page. */
export const groupsChinese: Catalog['groups'] = {
  title: '分组与价格',
};
