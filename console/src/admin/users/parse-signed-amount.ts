import { parseAmountToMicroUnits } from '../../format/parse-amount';

/**
 * Reads a signed amount a person typed ("5", "-2.50", "+1") into integer micro-units without floats; null when it is
 * not a decimal with at most six decimals, or when it is zero (a zero adjustment changes nothing).
 */
export function parseSignedAmountToMicroUnits(text: string): number | null {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('-');
  const magnitude = parseAmountToMicroUnits(negative || trimmed.startsWith('+') ? trimmed.slice(1) : trimmed);
  if (magnitude === null || magnitude === 0) return null;
  return negative ? -magnitude : magnitude;
}

/** Reads an optional limit: blank = null (the configured default), else a whole number ≥ 0; undefined when invalid. */
export function parseLimit(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d{1,12}$/.test(trimmed)) return undefined;
  return Number(trimmed);
}
