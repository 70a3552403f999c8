import type { Catalog } from '../en';

/** Simplified Chinese strings of the Orders page. */
export const ordersChinese: Catalog['orders'] = {
  title: '订单',
};
