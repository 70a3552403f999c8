// The /api answers the ledger page reads (docs/API.md "Console API", docs/BILLING.md "Ledger").

/** What a ledger entry records (`hold` is in the vocabulary but never written). */
export type LedgerKind = 'top-up' | 'bonus' | 'hold' | 'settlement' | 'refund' | 'adjustment' | 'redemption' | 'debt-repayment' | 'debt-from-shortfall' | 'topup-reversal';

/** One entry of GET /api/ledger, newest first. */
export interface LedgerEntry {
  id: string;
  userId: string;
  kind: LedgerKind;
  /** signed micro-units: credits positive, charges negative */
  amount: number;
  /** signed micro-units added to the debt (a settlement's uncovered part positive, a repayment negative) */
  debtChange: number;
  description: string;
  /** request id, order id, `redemption:<code id>` or who made the change, or null */
  reference: string | null;
  /** Unix milliseconds */
  createdAt: number;
}

/** A ledger entry with the balance right after it. */
export interface LedgerRow extends LedgerEntry {
  /** micro-units */
  balanceAfter: number;
}
