/** English strings of the Ledger page. */
export const ledgerEnglish = {
  title: 'Ledger',
  subtitle: 'Every change of your balance and debt, newest first.',
  balance: 'Balance: {{balance}}',
  debt: 'debt: {{debt}}',
  empty: 'Nothing in your ledger yet.',
  emptyHint: 'Top-ups, bonuses, redeemed codes and the cost of your requests will be listed here.',
  more: 'Load more',
  columns: { time: 'Time', kind: 'Kind', amount: 'Amount', balanceAfter: 'Balance after', debtChange: 'Debt change', description: 'Description', reference: 'Reference' },
  kinds: {
    'top-up': 'Top-up',
    bonus: 'Bonus',
    hold: 'Hold',
    settlement: 'Request charge',
    refund: 'Refund',
    adjustment: 'Adjustment',
    redemption: 'Redeemed code',
    'debt-repayment': 'Debt repayment',
    'debt-from-shortfall': 'Charge added to debt',
    'topup-reversal': 'Top-up refunded or disputed',
  },
} as const;
