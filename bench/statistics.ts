// Small statistics helpers for the benchmark: percentiles of samples and the spread of repeated runs.

/** The median of repeated measurements and their range. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** every measured value, in run order */
  values: number[];
}

/** The p-th percentile (0..100) of the samples by linear interpolation; NaN for no samples. */
export function percentile(samples: ArrayLike<number>, p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  const lowerValue = sorted[lower] as number;
  const upperValue = sorted[upper] as number;
  return lowerValue + (upperValue - lowerValue) * (rank - lower);
}

/** Median, min and max of repeated measurements. */
export function spreadOf(values: number[]): Spread {
  return { median: percentile(values, 50), min: Math.min(...values), max: Math.max(...values), values };
}

/** The spread of a value computed per repetition from two aligned series (e.g. gateway minus direct per round). */
export function pairedSpread(
  left: number[],
  right: number[],
  combine: (left: number, right: number) => number,
): Spread {
  return spreadOf(left.map((value, index) => combine(value, right[index] as number)));
}

/** Rounds for display and JSON: enough digits for sub-millisecond differences. */
export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
