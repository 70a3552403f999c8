/** English strings of the Ledger page. */
export const ledgerEnglish = {
  title: 'Ledger',
} as const;
