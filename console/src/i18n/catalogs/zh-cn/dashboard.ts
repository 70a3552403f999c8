import type { Catalog } from '../en';

/** Simplified Chinese strings of the Dashboard page. */
export const dashboardChinese: Catalog['dashboard'] = {
  title: '仪表盘',
  subtitle: '余额、消费和请求一览。',
  balance: {
    title: '余额',
    available: '可用',
    balance: '余额',
    held: '进行中请求的冻结',
    debt: '欠款',
    topUp: '充值',
    runway_other: '按近 7 天平均消费，约可用 {{count}} 天。',
    runwayOverAYear: '按近 7 天平均消费，可用一年以上。',
    noRunway: '近 7 天没有消费，无法估算可用天数。',
    lowTitle: '余额不足',
    lowBody: '可用余额为零时请求将被拒绝。',
    lowDebt: '你有欠款：还清之前新的请求将被拒绝。',
    lowAction: '立即充值',
  },
  ranges: {
    '24h': '最近 24 小时',
    '7d': '最近 7 天',
    '30d': '最近 30 天',
  },
  rangeLabel: '图表和密钥表的时间范围',
  stats: {
    requests_other: '{{count}} 次请求',
    errors_other: '{{count}} 次错误',
  },
  charts: {
    spendPer: { hour: '每小时各模型消费', day: '每日各模型消费' },
    requestsPer: { hour: '每小时请求数', day: '每日请求数' },
    share: { cost: '各模型消费占比', requests: '各模型请求占比' },
    spendLabel: '消费图表',
    requestsLabel: '请求图表',
    shareLabel: '模型占比图表',
    requests: '请求',
    errors: '错误',
    other: '其他模型',
    noSpend: '此范围内没有扣费。',
    noUsageInRange: '此范围内没有请求。',
  },
  keys: {
    title: '各密钥用量',
    columns: { key: '密钥', spend: '消费', requests: '请求', errors: '错误', lastUsed: '最近使用' },
    deletedKey: '已删除的密钥',
    never: '从未',
  },
  empty: {
    title: '还没有用量',
    hint: '发出你的第一个请求：创建 API 密钥，然后用 OpenAI SDK 或 curl 调用模型。',
    action: '创建 API 密钥',
  },
};
