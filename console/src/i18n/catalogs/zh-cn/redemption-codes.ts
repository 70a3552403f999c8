import type { Catalog } from '../en';

/** Simplified Chinese strings of the Redemption codes page. */
export const redemptionCodesChinese: Catalog['redemptionCodes'] = {
  title: '兑换码',
};
