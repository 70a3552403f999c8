import { microUnitsPerUnit } from './format-micro-units';

/** A decimal amount of currency units: digits, an optional point and at most six decimals. */
const amountPattern = /^(\d{1,12})(?:\.(\d{0,6}))?$/;

/**
 * Reads what a person typed as an amount ("10", "2.5", " 0.000001 ") into integer micro-units without floats;
 * null when it is not a non-negative decimal with at most six decimals.
 */
export function parseAmountToMicroUnits(text: string): number | null {
  const match = amountPattern.exec(text.trim());
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(6, '0'));
  return whole * microUnitsPerUnit + fraction;
}
