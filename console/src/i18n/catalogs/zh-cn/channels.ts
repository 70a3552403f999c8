import type { Catalog } from '../en';

/** Simplified Chinese strings of the Channels page. */
export const channelsChinese: Catalog['channels'] = {
  title: '渠道',
};
