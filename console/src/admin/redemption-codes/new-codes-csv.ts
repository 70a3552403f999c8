import { microUnitsPerUnit } from '../../format/format-micro-units';
import type { CreatedRedemptionBatch } from './redemption-codes-types';

/** Quotes a CSV cell when it holds a comma, quote or line break; a cell a spreadsheet would run as a formula gets a leading quote mark. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The decimal form of an amount of micro-units, with integer arithmetic only: 10_500_000 → "10.5". */
function decimalAmount(amount: number): string {
  const whole = Math.floor(amount / microUnitsPerUnit);
  const fraction = String(amount % microUnitsPerUnit).padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/**
 * A new batch as CSV, the same columns the gateway's `format=csv` answer has plus the amount as a decimal:
 * code, id, batch_id, amount_micro_units, amount, expires_at (ISO 8601 or empty), note.
 */
export function newCodesCsv(batch: CreatedRedemptionBatch): string {
  const header = ['code', 'id', 'batch_id', 'amount_micro_units', 'amount', 'expires_at', 'note'];
  const expiresAt = batch.expiresAt === null ? '' : new Date(batch.expiresAt).toISOString();
  const rows = batch.codes.map((code) => [code.code, code.id, batch.batchId, String(batch.amount), decimalAmount(batch.amount), expiresAt, batch.note ?? '']);
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Makes the browser save `text` as a file named `fileName` without a round trip to the gateway. */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
