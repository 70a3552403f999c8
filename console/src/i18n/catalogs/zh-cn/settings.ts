import type { Catalog } from '../en';

/** Simplified Chinese strings of the Settings page. */
export const settingsChinese: Catalog['settings'] = {
  title: '设置',
};
