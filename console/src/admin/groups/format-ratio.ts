import { microUnitsToDecimal } from './price-form-values';

/** Shows a ratio in millionths as a multiplier with at least two decimals: 1_500_000 → "×1.50", 1_234_500 → "×1.2345". */
export function formatRatio(priceRatioMillionths: number): string {
  const [whole, fraction = ''] = microUnitsToDecimal(priceRatioMillionths).split('.');
  return `×${whole}.${fraction.padEnd(2, '0')}`;
}
