import { parseAmountToMicroUnits } from '../../format/parse-amount';

/** The largest ratio the gateway accepts (×1000). */
const largestRatioMillionths = 1_000_000_000;

/** Reads a typed ratio ("1.5", "0.8") into millionths exactly (1.5 → 1_500_000); null when it is not one. */
export function parsePriceRatio(text: string): number | null {
  const millionths = parseAmountToMicroUnits(text);
  return millionths === null || millionths > largestRatioMillionths ? null : millionths;
}
