import { describe, expect, it } from 'vitest';
import { applyPriceRatio } from './apply-price-ratio.js';

describe('applyPriceRatio', () => {
  it('multiplies every rate by the ratio in millionths, rounding up to a whole micro-unit', () => {
    const price = {
      modelId: 'm',
      inputPerMillion: 3,
      cachedInputPerMillion: 1,
      cacheWritePerMillion: 4,
      cacheWriteOneHourPerMillion: 7,
      outputPerMillion: 10,
      imagePrices: { '1024x1024': 7 },
      audioPerMinute: 5,
      videoPerSecond: 0,
    };
    expect(applyPriceRatio(price, 1_500_000)).toEqual({
      modelId: 'm',
      inputPerMillion: 5,
      cachedInputPerMillion: 2,
      cacheWritePerMillion: 6,
      cacheWriteOneHourPerMillion: 11,
      outputPerMillion: 15,
      imagePrices: { '1024x1024': 11 },
      audioPerMinute: 8,
      videoPerSecond: 0,
    });
    expect(applyPriceRatio(price, 1_000_000)).toEqual(price);
  });

  it('shows a price without its own 1-hour cache-write rate at twice the input, as it is charged', () => {
    const price = {
      modelId: 'm',
      inputPerMillion: 3,
      cachedInputPerMillion: 1,
      cacheWritePerMillion: 4,
      outputPerMillion: 10,
      imagePrices: {},
      audioPerMinute: 0,
      videoPerSecond: 0,
    };
    expect(applyPriceRatio(price, 1_500_000).cacheWriteOneHourPerMillion).toBe(9);
  });
});
