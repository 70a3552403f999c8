import { describe, expect, it } from 'vitest';
import { holdPriceRatio, settlementPriceRatio } from './premium-price-ratio.js';

const ratios = new Map([
  ['channel-a', 2_000_000],
  ['channel-b', 1_500_000],
]);

describe('premium price ratios', () => {
  it('leave the group ratio alone when the request uses no premium field', () => {
    expect(holdPriceRatio(1_200_000, {})).toBe(1_200_000);
    expect(settlementPriceRatio(1_200_000, {}, 'channel-a')).toBe(1_200_000);
  });

  it('hold at the highest channel ratio and settle at the serving channel ratio, times the group ratio', () => {
    expect(holdPriceRatio(1_500_000, { premiumPriceRatios: ratios })).toBe(3_000_000);
    expect(settlementPriceRatio(1_500_000, { premiumPriceRatios: ratios }, 'channel-b')).toBe(2_250_000);
    expect(settlementPriceRatio(1_000_000, { premiumPriceRatios: ratios }, 'unlisted')).toBe(1_000_000);
    expect(settlementPriceRatio(1_000_000, { premiumPriceRatios: ratios }, undefined)).toBe(2_000_000);
  });

  it('round the product up to the next millionth, in the operator favour', () => {
    expect(holdPriceRatio(1_000_001, { premiumPriceRatios: new Map([['c', 1_500_000]]) })).toBe(1_500_002);
    expect(holdPriceRatio(0, { premiumPriceRatios: ratios })).toBe(0);
  });
});
