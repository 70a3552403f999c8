import type { Catalog } from '../en';

/** Simplified Chinese strings of the Ledger page. */
export const ledgerChinese: Catalog['ledger'] = {
  title: '账本',
};
