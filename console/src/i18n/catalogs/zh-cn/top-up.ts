import type { Catalog } from '../en';

/** Simplified Chinese strings of the Top-up page. */
export const topUpChinese: Catalog['topUp'] = {
  title: '充值',
};
