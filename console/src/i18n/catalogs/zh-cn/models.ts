import type { Catalog } from '../en';

/** Simplified Chinese strings of the Models & prices page. */
export const modelsChinese: Catalog['models'] = {
  title: '模型与价格',
};
