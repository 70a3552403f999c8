/** Micro-units per currency unit (docs/BILLING.md). */
export const microUnitsPerUnit = 1_000_000;

/**
 * Shows an integer amount of micro-units as currency units with integer arithmetic only (no float rounding):
 * at least two decimals, at most six, the whole part grouped the locale's way. 12_345_600 → "12.3456".
 */
export function formatMicroUnits(amount: number, locale: string): string {
  const negative = amount < 0;
  const magnitude = Math.abs(amount);
  const whole = Math.floor(magnitude / microUnitsPerUnit);
  const fraction = String(magnitude % microUnitsPerUnit).padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  const grouped = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(whole);
  return `${negative ? '-' : ''}${grouped}.${fraction}`;
}
