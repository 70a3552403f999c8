import type { LedgerEntryRecord } from './billing-records.js';
import type { UserRecord } from './store-records.js';

/** Where a redemption code stands; `expired` is an active code past its expiry (computed, not stored). */
export type RedemptionCodeStatus = 'active' | 'redeemed' | 'disabled' | 'expired';

/** A redemption code as stored: never the code itself, only its display prefix. */
export interface RedemptionCodeRecord {
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
  /** Unix milliseconds */
  createdAt: number;
  /** the creating admin's email, or `admin token` */
  createdBy: string;
  redeemedBy: string | null;
  /** Unix milliseconds */
  redeemedAt: number | null;
  /** Unix milliseconds */
  disabledAt: number | null;
}

/** One batch to store: every code of it shares amount, note and expiry. */
export interface NewRedemptionBatch {
  batchId: string;
  codes: ReadonlyArray<{ id: string; codeHash: string; codePrefix: string }>;
  /** micro-units per code */
  amount: number;
  note: string | null;
  /** Unix milliseconds, or null */
  expiresAt: number | null;
  createdBy: string;
  /** Unix milliseconds */
  createdAt: number;
}

/** Which codes to list, newest first. */
export interface RedemptionCodeFilter {
  batchId?: string;
  status?: RedemptionCodeStatus;
  limit: number;
  /** cursor: the last row of the previous page */
  before?: { createdAt: number; id: string };
  /** Unix milliseconds, to tell active from expired */
  now: number;
}

/** A redemption as written: the code, the `redemption` ledger entry, any debt repayment and the new money. */
export interface RedemptionResult {
  code: RedemptionCodeRecord;
  entry: LedgerEntryRecord;
  /** the `debt-repayment` entry when the user owed money, else undefined */
  repayment: LedgerEntryRecord | undefined;
  /** micro-units after the credit and any repayment */
  balance: number;
  /** micro-units still owed */
  debt: number;
}

/** Administrative account records: redemption codes, user status and sessions, the first-admin check. */
export interface AccountAdminStore {
  /** stores every code of a batch in one transaction */
  createRedemptionBatch(batch: NewRedemptionBatch): Promise<void>;
  listRedemptionCodes(filter: RedemptionCodeFilter): Promise<RedemptionCodeRecord[]>;
  /** disables the active codes of a batch, or the one code; returns how many changed */
  disableRedemptionCodes(target: { batchId: string } | { codeId: string }, now: number): Promise<number>;
  /**
   * In one transaction: marks the active, unexpired code with this hash redeemed by the user (a compare-and-set, so
   * two concurrent redemptions credit once), credits its amount with a `redemption` ledger entry and pays any debt
   * first. Undefined when no such code is redeemable (wrong, used, expired or disabled alike).
   */
  redeemRedemptionCode(options: {
    codeHash: string;
    userId: string;
    now: number;
  }): Promise<RedemptionResult | undefined>;
  /** sets a user's status (routing revision bumped, so keys follow); disabling also ends every session; false if no such user */
  setUserStatus(userId: string, status: UserRecord['status']): Promise<boolean>;
  /** how many administrator accounts exist (first-run setup is open only while there are none) */
  countAdmins(): Promise<number>;
}
