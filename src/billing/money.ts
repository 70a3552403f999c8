/** Micro-units in one currency unit: every amount in the gateway is an integer count of micro-units. */
export const microUnitsPerCurrencyUnit = 1_000_000;

const currencyAmountPattern = /^(-)?(\d+)(?:\.(\d{1,6}))?$/;

/**
 * Parses a decimal currency amount such as `12.5` or `0.000001` into micro-units exactly (no floating point);
 * throws on more than six decimals, on non-numbers and on amounts beyond 2^53 micro-units.
 */
export function parseCurrencyAmount(text: string): number {
  const match = currencyAmountPattern.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not an amount: use digits with at most six decimals, e.g. 12.50`);
  const [, sign, whole = '0', fraction = ''] = match;
  const microUnits = BigInt(whole) * BigInt(microUnitsPerCurrencyUnit) + BigInt(fraction.padEnd(6, '0'));
  if (microUnits > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`"${text}" is too large`);
  return sign ? -Number(microUnits) : Number(microUnits);
}

/** Formats micro-units as a decimal currency amount with six decimals, e.g. 2500000 -> `2.500000`. */
export function formatMicroUnits(microUnits: number): string {
  const sign = microUnits < 0 ? '-' : '';
  const absolute = BigInt(Math.abs(microUnits));
  const unit = BigInt(microUnitsPerCurrencyUnit);
  return `${sign}${absolute / unit}.${(absolute % unit).toString().padStart(6, '0')}`;
}
