// How numbers appear in the report.
import type { Spread } from './statistics.js';

/** `0.123 (0.110–0.130)`: median and range, or just the value when all runs agree or there was one run. */
export function formatSpread(spread: Spread | undefined, digits = 3, scale = 1): string {
  if (!spread) return '–';
  const show = (value: number) => (value * scale).toFixed(digits);
  if (spread.values.length < 2) return show(spread.median);
  return `${show(spread.median)} (${show(spread.min)}–${show(spread.max)})`;
}

/** Bytes as decimal megabytes, e.g. `84.2 MB`. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Requests per second without decimals, e.g. `8 412`. */
export function formatRate(spread: Spread | undefined): string {
  return formatSpread(spread, 0);
}
