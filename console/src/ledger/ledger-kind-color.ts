import type { LedgerKind } from './ledger-types';

/** The badge colour of a ledger kind: credits green, charges blue, corrections and debt orange. */
export function ledgerKindColor(kind: LedgerKind): string {
  switch (kind) {
    case 'top-up':
    case 'bonus':
    case 'redemption':
    case 'refund':
      return 'teal';
    case 'settlement':
    case 'hold':
      return 'blue';
    case 'adjustment':
      return 'grape';
    case 'debt-repayment':
    case 'debt-from-shortfall':
    case 'topup-reversal':
      return 'orange';
    default: {
      const unexpected: never = kind;
      return unexpected;
    }
  }
}
