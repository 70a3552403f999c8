import type { Catalog } from '../en';

/** Simplified Chinese strings of the Models & prices page. */
export const modelsChinese: Catalog['models'] = {
  title: '模型与价格',
  subtitle: '你所在分组的模型，价格已按分组倍率计算。Token 价格以每百万 Token 计。',
  search: '搜索模型',
  searchPlaceholder: '模型、提供方或分组',
  noGroups: '你还没有任何分组。',
  noGroupsHint: '请联系运营者为你授权分组，其模型和价格会显示在这里。',
  noMatch: '没有与“{{search}}”匹配的模型。',
  ratio: '价格倍率 ×{{ratio}}',
  modelCount_other: '{{count}} 个模型',
  groupEmpty: '此分组目前没有可用的模型。',
  tableLabel: '{{name}} 的模型',
  columns: {
    model: '模型',
    availability: '可用性',
    inputPerMillion: '输入 / 百万',
    cachedInputPerMillion: '缓存输入 / 百万',
    cacheWritePerMillion: '缓存写入 / 百万',
    outputPerMillion: '输出 / 百万',
    other: '图像、音频、视频',
  },
  available: '可用',
  unavailable: '不可用',
  perImage: '{{variant}}：{{amount}} / 张',
  perMinute: '音频：{{amount}} / 分钟',
  perSecond: '视频：{{amount}} / 秒',
};
