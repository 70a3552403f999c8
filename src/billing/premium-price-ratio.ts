import type { MeteredRequest } from './request-accounting.js';
import { neutralPriceRatio } from './calculate-request-cost.js';

const millionths = BigInt(neutralPriceRatio);

/**
 * The price ratio to hold at: the group's ratio times the highest premium ratio among the channels that may serve
 * a request using a price-changing field (`service_tier`, `web_search_options`, ...), since any of them may answer.
 */
export function holdPriceRatio(
  groupRatioMillionths: number,
  request: Pick<MeteredRequest, 'premiumPriceRatios'>,
): number {
  const ratios = request.premiumPriceRatios;
  if (!ratios || ratios.size === 0) return groupRatioMillionths;
  return multiplyRatios(groupRatioMillionths, Math.max(...ratios.values()));
}

/**
 * The price ratio to settle at: the group's ratio times the premium ratio of the channel that served the request
 * (no premium for a channel outside the map; the hold's ratio when no channel was reached).
 */
export function settlementPriceRatio(
  groupRatioMillionths: number,
  request: Pick<MeteredRequest, 'premiumPriceRatios'>,
  channelId: string | undefined,
): number {
  const ratios = request.premiumPriceRatios;
  if (!ratios || ratios.size === 0) return groupRatioMillionths;
  if (channelId === undefined) return holdPriceRatio(groupRatioMillionths, request);
  return multiplyRatios(groupRatioMillionths, ratios.get(channelId) ?? neutralPriceRatio);
}

/** Two ratios in millionths multiplied, rounded up to the next millionth (in the operator's favour by under one millionth). */
function multiplyRatios(left: number, right: number): number {
  return Number((BigInt(left) * BigInt(right) + millionths - 1n) / millionths);
}
