import { describe, expect, it } from 'vitest';
import { costDenominator, explainCost, formatExactAmount } from './cost-breakdown';
import type { UsageLogPricing } from './usage-logs-types';

const pricing: UsageLogPricing = {
  inputPerMillion: 2_500_000, cachedInputPerMillion: 1_250_000, cacheWritePerMillion: 3_125_000, outputPerMillion: 10_000_000,
  priceRatioMillionths: 1_500_000, imageCost: 0, audioMilliseconds: 0, audioPerMinute: 0, videoCost: 0,
};

describe('explainCost', () => {
  it('prices uncached, cached and cache-write input and output at ratio, and rounds the exact sum up once', () => {
    // 60 uncached × 2.5 + 30 cached × 1.25 + 10 written × 3.125 + 7 output × 10 (micro-units per token ×10^-6 per M) × 1.5
    const breakdown = explainCost({ promptTokens: 100, cachedTokens: 30, cacheWriteTokens: 10, completionTokens: 7, cost: 446, pricing })!;
    expect(breakdown.components.map((component) => [component.kind, component.quantity, component.unitPrice])).toEqual([
      ['input', 60, 2_500_000],
      ['cachedInput', 30, 1_250_000],
      ['cacheWrite', 10, 3_125_000],
      ['output', 7, 10_000_000],
    ]);
    const amounts = breakdown.components.map((component) => formatExactAmount(component.numerator, costDenominator));
    expect(amounts).toEqual(['0.000225', '0.00005625', '0.000046875', '0.000105']);
    // 225 + 56.25 + 46.875 + 105 = 433.125 micro-units: one rounding up gives 434, not a sum of rounded parts (435).
    expect(formatExactAmount(breakdown.totalNumerator, costDenominator)).toBe('0.000433125');
    expect(breakdown.roundedUp).toBe(434);
    expect(breakdown.matchesCost).toBe(false);
    expect(explainCost({ promptTokens: 100, cachedTokens: 30, cacheWriteTokens: 10, completionTokens: 7, cost: 434, pricing })!.matchesCost).toBe(true);
  });

  it('prices 1-hour cache writes on their own line, at their own price, so the breakdown adds up to the cost', () => {
    const oneHourPricing: UsageLogPricing = {
      ...pricing, inputPerMillion: 1_000_000, cachedInputPerMillion: 1_000_000, cacheWritePerMillion: 2_000_000,
      cacheWriteOneHourPerMillion: 3_000_000, outputPerMillion: 4_000_000, priceRatioMillionths: 1_000_000,
    };
    const log = { promptTokens: 12, cachedTokens: 0, cacheWriteTokens: 9, cacheWriteOneHourTokens: 6, completionTokens: 5, cost: 47 };
    const breakdown = explainCost({ ...log, pricing: oneHourPricing })!;
    expect(breakdown.components.map((component) => [component.kind, component.quantity, component.unitPrice])).toEqual([
      ['input', 3, 1_000_000],
      ['cacheWrite', 3, 2_000_000],
      ['cacheWriteOneHour', 6, 3_000_000],
      ['output', 5, 4_000_000],
    ]);
    // 3 × 1 + 3 × 2 + 6 × 3 + 5 × 4 = 47 micro-units, the cost the gateway charged
    expect(breakdown.roundedUp).toBe(47);
    expect(breakdown.matchesCost).toBe(true);
  });

  it('adds images, audio and video at ratio and leaves out what was not used', () => {
    const withMedia = { ...pricing, imageCost: 80_000, audioMilliseconds: 90_000, audioPerMinute: 6_000, videoCost: 0 };
    const breakdown = explainCost({ promptTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0, cost: 133_500, pricing: withMedia })!;
    expect(breakdown.components.map((component) => component.kind)).toEqual(['input', 'output', 'image', 'audio']);
    // 80,000 × 1.5 = 120,000; 1.5 minutes × 6,000 × 1.5 = 13,500
    expect(breakdown.roundedUp).toBe(133_500);
    expect(breakdown.matchesCost).toBe(true);
  });

  it('has nothing to explain for a row without pricing', () => {
    expect(explainCost({ promptTokens: 5, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 5, cost: 0, pricing: null })).toBeNull();
  });
});

describe('formatExactAmount', () => {
  it('shows exact decimals and marks an amount cut short', () => {
    expect(formatExactAmount(0n, costDenominator)).toBe('0.00');
    expect(formatExactAmount(costDenominator * 12_345_600n, costDenominator)).toBe('12.3456');
    expect(formatExactAmount(costDenominator / 3n, costDenominator, 9)).toBe('0.000000333…');
  });
});
