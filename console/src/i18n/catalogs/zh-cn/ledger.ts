import type { Catalog } from '../en';

/** Simplified Chinese strings of the Ledger page. */
export const ledgerChinese: Catalog['ledger'] = {
  title: '账目',
  subtitle: '余额和欠款的每一笔变动，最新的在前。',
  balance: '余额：{{balance}}',
  debt: '欠款：{{debt}}',
  empty: '账本中还没有记录。',
  emptyHint: '充值、奖励、兑换的充值码和请求费用都会列在这里。',
  more: '加载更多',
  columns: { time: '时间', kind: '类型', amount: '金额', balanceAfter: '变动后余额', debtChange: '欠款变动', description: '说明', reference: '参考号' },
  kinds: {
    'top-up': '充值',
    bonus: '奖励',
    hold: '预扣',
    settlement: '请求扣费',
    refund: '退款',
    adjustment: '调整',
    redemption: '兑换充值码',
    'debt-repayment': '偿还欠款',
    'debt-from-shortfall': '扣费转为欠款',
    'topup-reversal': '充值退款或争议',
  },
};
