import { stringify } from 'csv-stringify/sync';
import type { RedemptionCodeRecord } from '../../storage/account-admin-store.js';

/** A batch as created: the full codes, which exist only in this answer. */
export interface CreatedRedemptionCode {
  id: string;
  code: string;
  codePrefix: string;
}

/** CSV of stored codes: what the database keeps (prefix, amount, status, redemption, expiry), never a full code. */
export function encodeStoredRedemptionCodesCsv(codes: readonly RedemptionCodeRecord[]): string {
  return stringify(
    codes.map((code) => [
      code.id,
      code.batchId,
      code.codePrefix,
      code.amount,
      code.status,
      code.redeemedBy ?? '',
      isoTime(code.redeemedAt),
      isoTime(code.expiresAt),
      code.note ?? '',
    ]),
    {
      header: true,
      escape_formulas: true,
      columns: [
        'id',
        'batch_id',
        'code_prefix',
        'amount_micro_units',
        'status',
        'redeemed_by',
        'redeemed_at',
        'expires_at',
        'note',
      ],
    },
  );
}

/** CSV of a batch just created, with the full codes (shown this once). */
export function encodeCreatedRedemptionCodesCsv(batch: {
  batchId: string;
  amount: number;
  expiresAt: number | null;
  note: string | null;
  codes: readonly CreatedRedemptionCode[];
}): string {
  return stringify(
    batch.codes.map((code) => [
      code.code,
      code.id,
      batch.batchId,
      batch.amount,
      isoTime(batch.expiresAt),
      batch.note ?? '',
    ]),
    {
      header: true,
      escape_formulas: true,
      columns: ['code', 'id', 'batch_id', 'amount_micro_units', 'expires_at', 'note'],
    },
  );
}

function isoTime(time: number | null): string {
  return time === null ? '' : new Date(time).toISOString();
}
