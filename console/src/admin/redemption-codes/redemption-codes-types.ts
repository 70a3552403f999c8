// The /api answers the Redemption codes page reads (docs/API.md, /api/admin/redemption-codes).

/** Where a code stands. */
export type RedemptionCodeStatus = 'active' | 'redeemed' | 'disabled' | 'expired';

/** Every code status, in the order the status filter offers them. */
export const redemptionCodeStatuses: readonly RedemptionCodeStatus[] = ['active', 'redeemed', 'disabled', 'expired'];

/** A stored code as GET /api/admin/redemption-codes lists it (never the full code). */
export interface RedemptionCode {
  id: string;
  batchId: string;
  /** the code's first symbols, safe to show */
  codePrefix: string;
  /** micro-units credited on redemption */
  amount: number;
  status: RedemptionCodeStatus;
  note: string | null;
  /** Unix milliseconds; null = never expires */
  expiresAt: number | null;
  createdAt: number;
  /** the creating admin's email, or `admin token` */
  createdBy: string;
  /** the redeeming user's id */
  redeemedBy: string | null;
  redeemedAt: number | null;
  disabledAt: number | null;
}

/** One page of GET /api/admin/redemption-codes; `nextCursor` is null on the last page. */
export interface RedemptionCodePage {
  data: RedemptionCode[];
  nextCursor: string | null;
}

/** One new code of POST /api/admin/redemption-codes: the full code, shown this once. */
export interface CreatedRedemptionCode {
  id: string;
  code: string;
  codePrefix: string;
}

/** POST /api/admin/redemption-codes: the new batch with its full codes. */
export interface CreatedRedemptionBatch {
  batchId: string;
  /** micro-units per code */
  amount: number;
  count: number;
  expiresAt: number | null;
  note: string | null;
  codes: CreatedRedemptionCode[];
}

/** What a disable answers: how many codes it disabled. */
export interface DisableAnswer {
  disabled: number;
}
