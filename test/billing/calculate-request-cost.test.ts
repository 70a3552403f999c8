import { describe, expect, it } from 'vitest';
import { emptyBillableUsage, type BillableUsage } from '../../src/billing/billable-usage.js';
import { calculateRequestCost } from '../../src/billing/calculate-request-cost.js';
import { formatMicroUnits, parseCurrencyAmount } from '../../src/billing/money.js';
import type { ModelPrice } from '../../src/billing/model-price.js';

const price: ModelPrice = {
  modelId: 'priced-model',
  inputPerMillion: 2_500_000, // 2.50 per million input tokens
  cachedInputPerMillion: 1_250_000,
  cacheWritePerMillion: 3_750_000,
  outputPerMillion: 10_000_000,
  imagePrices: {
    '1024x1024:hd': 80_000,
    '1024x1024': 40_000,
    '1792x1024:standard': 70_000,
    '1792x1024:hd': 90_000,
    default: 120_000,
  },
  audioPerMinute: 6_000,
  videoPerSecond: 100_000,
};

const usage = (overrides: Partial<BillableUsage>): BillableUsage => ({ ...emptyBillableUsage, ...overrides });

describe('calculateRequestCost', () => {
  it.each([
    { case: 'nothing used costs nothing', usage: usage({}), ratio: 1_000_000, expected: 0 },
    {
      case: 'one million input tokens cost the input price',
      usage: usage({ promptTokens: 1_000_000 }),
      ratio: 1_000_000,
      expected: 2_500_000,
    },
    {
      case: 'one input token rounds 2.5 micro-units up to 3',
      usage: usage({ promptTokens: 1 }),
      ratio: 1_000_000,
      expected: 3,
    },
    { case: 'two input tokens are exactly 5', usage: usage({ promptTokens: 2 }), ratio: 1_000_000, expected: 5 },
    {
      case: 'rounding happens once per request, not per component (2.5 + 1.25 = 3.75 -> 4, not 3 + 2)',
      usage: usage({ promptTokens: 2, cachedPromptTokens: 1 }),
      ratio: 1_000_000,
      expected: 4,
    },
    {
      case: 'output tokens use the output price',
      usage: usage({ completionTokens: 3 }),
      ratio: 1_000_000,
      expected: 30,
    },
    {
      case: 'cached tokens are part of the prompt and priced lower',
      usage: usage({ promptTokens: 1_000_000, cachedPromptTokens: 400_000 }),
      ratio: 1_000_000,
      expected: 1_500_000 + 500_000,
    },
    {
      case: 'cache writes are part of the prompt and priced higher',
      usage: usage({ promptTokens: 1_000_000, cacheWritePromptTokens: 1_000_000 }),
      ratio: 1_000_000,
      expected: 3_750_000,
    },
    {
      case: 'more cached tokens than prompt tokens are capped at the prompt',
      usage: usage({ promptTokens: 10, cachedPromptTokens: 50 }),
      ratio: 1_000_000,
      expected: 13,
    },
    {
      case: 'a group ratio of 1.5 multiplies before rounding',
      usage: usage({ promptTokens: 1 }),
      ratio: 1_500_000,
      expected: 4,
    },
    {
      case: 'a group ratio of 0 makes requests free',
      usage: usage({ promptTokens: 1_000, completionTokens: 1_000 }),
      ratio: 0,
      expected: 0,
    },
    {
      case: 'an image by size and quality',
      usage: usage({ images: [{ size: '1024x1024', quality: 'hd' }] }),
      ratio: 1_000_000,
      expected: 80_000,
    },
    {
      case: 'an image by size when the quality has no price',
      usage: usage({ images: [{ size: '1024x1024', quality: 'standard' }] }),
      ratio: 1_000_000,
      expected: 40_000,
    },
    {
      case: 'an image of an unpriced size uses the default',
      usage: usage({
        images: [
          { size: '512x512', quality: undefined },
          { size: undefined, quality: undefined },
        ],
      }),
      ratio: 1_000_000,
      expected: 240_000,
    },
    { case: 'one minute of audio', usage: usage({ audioMilliseconds: 60_000 }), ratio: 1_000_000, expected: 6_000 },
    {
      case: 'one millisecond of audio rounds up to one micro-unit',
      usage: usage({ audioMilliseconds: 1 }),
      ratio: 1_000_000,
      expected: 1,
    },
    {
      case: '30.5 seconds of audio is exactly 3050',
      usage: usage({ audioMilliseconds: 30_500 }),
      ratio: 1_000_000,
      expected: 3_050,
    },
    {
      case: "an image without a quality uses the size's standard price",
      usage: usage({ images: [{ size: '1792x1024', quality: undefined }] }),
      ratio: 1_000_000,
      expected: 70_000,
    },
    {
      case: 'an image of an unpriced quality uses the dearest quality of its size',
      usage: usage({ images: [{ size: '1792x1024', quality: 'auto' }] }),
      ratio: 1_000_000,
      expected: 90_000,
    },
    { case: 'video by the second', usage: usage({ videoSeconds: 8 }), ratio: 1_000_000, expected: 800_000 },
    {
      case: 'everything together is summed exactly and rounded once',
      usage: usage({ promptTokens: 3, completionTokens: 1, audioMilliseconds: 1 }),
      ratio: 1_000_000,
      expected: 18,
    },
    {
      case: 'huge counts do not lose digits (beyond 2^53 intermediate products)',
      usage: usage({ promptTokens: 4_000_000_000, completionTokens: 4_000_000_000 }),
      ratio: 1_000_000,
      expected: 50_000_000_000,
    },
  ])('$case', ({ usage: used, ratio, expected }) => {
    expect(calculateRequestCost(used, price, ratio)).toBe(expected);
  });

  it('an image without any image price falls back to the documented default per image', () => {
    expect(
      calculateRequestCost(usage({ images: [{ size: '1024x1024', quality: undefined }] }), {
        ...price,
        imagePrices: {},
      }),
    ).toBe(40_000);
  });
});

describe('currency amounts', () => {
  it.each([
    ['1', 1_000_000],
    ['0.000001', 1],
    ['12.5', 12_500_000],
    ['-3.25', -3_250_000],
    ['0.1', 100_000],
  ])('parses %s exactly', (text, expected) => {
    expect(parseCurrencyAmount(text)).toBe(expected);
  });

  it.each(['0.0000001', 'abc', '1e3', '', '1.'])('refuses %j', (text) => {
    expect(() => parseCurrencyAmount(text)).toThrow();
  });

  it('formats micro-units back', () => {
    expect(formatMicroUnits(12_500_001)).toBe('12.500001');
    expect(formatMicroUnits(-1)).toBe('-0.000001');
  });
});
