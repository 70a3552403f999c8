import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyBillableUsage, type BillableUsage } from './billable-usage.js';
import { fallbackImagePrice } from './fallback-image-price.js';
import { mapCatalogPrices } from './model-price.js';
import {
  costDenominator,
  costOfPricing,
  listCostComponents,
  priceRequest,
  type PricedTokens,
  type RequestPricing,
} from './request-pricing.js';

/** The definition: the exact BigInt sum of the components, rounded up once. */
function referenceCost(tokens: PricedTokens, pricing: RequestPricing): number {
  const numerator = listCostComponents(tokens, pricing).reduce((sum, component) => sum + component.numerator, 0n);
  return numerator <= 0n ? 0 : Number((numerator + costDenominator - 1n) / costDenominator);
}

const tokenPricing = (pricing: Partial<RequestPricing>): RequestPricing => ({
  inputPerMillion: 2_500_000,
  cachedInputPerMillion: 1_250_000,
  cacheWritePerMillion: 3_125_000,
  cacheWriteOneHourPerMillion: 5_000_000,
  outputPerMillion: 10_000_000,
  priceRatioMillionths: 1_000_000,
  imageCost: 0,
  audioMilliseconds: 0,
  audioPerMinute: 0,
  videoCost: 0,
  ...pricing,
});

describe('costOfPricing', () => {
  it('equals the exact BigInt sum for token-only requests of every size, small to beyond 2^53', () => {
    const count = fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 2_000_000_000 }));
    const price = fc.oneof(fc.integer({ min: 0, max: 100_000_000 }), fc.constantFrom(0, 1, 999_999, 1_000_000));
    fc.assert(
      fc.property(
        count,
        count,
        count,
        count,
        price,
        price,
        price,
        price,
        fc.integer({ min: 0, max: 50_000_000 }),
        (prompt, cached, cacheWrite, completion, input, cachedInput, write, output, ratio) => {
          const tokens = {
            promptTokens: prompt,
            cachedTokens: cached,
            cacheWriteTokens: cacheWrite,
            completionTokens: completion,
          };
          const pricing = tokenPricing({
            inputPerMillion: input,
            cachedInputPerMillion: cachedInput,
            cacheWritePerMillion: write,
            outputPerMillion: output,
            priceRatioMillionths: ratio,
          });
          expect(costOfPricing(tokens, pricing)).toBe(referenceCost(tokens, pricing));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('rounds up once, at exact multiples and one past them', () => {
    const pricing = tokenPricing({ inputPerMillion: 1_000_000, priceRatioMillionths: 1_000_000 });
    // 10^6 tokens at 1 micro-unit per token: exactly 10^6 micro-units; one more token is one more micro-unit.
    const exactly = { promptTokens: 1_000_000, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0 };
    expect(costOfPricing(exactly, pricing)).toBe(1_000_000);
    expect(costOfPricing({ ...exactly, promptTokens: 1_000_001 }, pricing)).toBe(1_000_001);
    // One token at a micro-unit per million tokens: a millionth of a micro-unit still costs one.
    expect(costOfPricing({ ...exactly, promptTokens: 1 }, tokenPricing({ inputPerMillion: 1 }))).toBe(1);
    expect(costOfPricing({ ...exactly, promptTokens: 0 }, pricing)).toBe(0);
  });

  it.each([
    // [tokens, micro-units per million, ratio in millionths, cost]: tokens × price × ratio around multiples of 10^12
    [1, 1, 1, 1],
    [999_999, 1_000_000, 1, 1],
    [1_000_000, 1_000_000, 1, 1],
    [1_000_001, 1_000_000, 1, 2],
    [3_000_000, 1_000_000, 1_000_000, 3_000_000],
    [3_000_001, 1_000_000, 1_000_000, 3_000_001],
  ])(
    'rounds %i tokens at %i per million and ratio %i up to %i micro-units',
    (promptTokens, inputPerMillion, priceRatioMillionths, cost) => {
      const tokens = { promptTokens, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 0 };
      const pricing = tokenPricing({ inputPerMillion, priceRatioMillionths });
      expect(referenceCost(tokens, pricing)).toBe(cost);
      expect(costOfPricing(tokens, pricing)).toBe(cost);
    },
  );

  it('prices images, audio and video with tokens exactly', () => {
    const tokens = { promptTokens: 1_234, cachedTokens: 100, cacheWriteTokens: 0, completionTokens: 77 };
    const pricing = tokenPricing({
      imageCost: 40_000,
      audioMilliseconds: 61_001,
      audioPerMinute: 6_000,
      videoCost: 3,
      priceRatioMillionths: 1_333_333,
    });
    expect(costOfPricing(tokens, pricing)).toBe(referenceCost(tokens, pricing));
  });
});

describe('priceRequest', () => {
  const chatPrice = mapCatalogPrices('chat-model', { inputPerMillion: 2_500_000, outputPerMillion: 10_000_000 });
  const imagePrice = mapCatalogPrices('image-model', {
    inputPerMillion: 0,
    outputPerMillion: 0,
    perImage: { '1024x1024:standard': 40_000, '1024x1024:hd': 80_000 },
  });
  const images = (...sizes: Array<[string | undefined, string | undefined]>): BillableUsage => ({
    ...emptyBillableUsage,
    images: sizes.map(([size, quality]) => ({ size, quality })),
  });

  it("charges each image at the model's price for its size and quality", () => {
    expect(priceRequest(images(['1024x1024', 'hd'], ['1024x1024', undefined]), imagePrice, 1_000_000).imageCost).toBe(
      120_000,
    );
  });

  it('charges images of a model without image prices at the fallback price, and nothing without images', () => {
    expect(priceRequest(images([undefined, undefined], ['512x512', 'hd']), chatPrice, 1_000_000).imageCost).toBe(
      2 * fallbackImagePrice,
    );
    expect(priceRequest(emptyBillableUsage, chatPrice, 1_000_000)).toEqual(
      tokenPricing({ cachedInputPerMillion: 2_500_000, cacheWritePerMillion: 2_500_000 }),
    );
  });

  it('gives requests priced alike by tokens only one shared, frozen pricing, and a request with images its own', () => {
    const first = priceRequest({ ...emptyBillableUsage, promptTokens: 10 }, chatPrice, 1_000_000);
    const second = priceRequest({ ...emptyBillableUsage, completionTokens: 99 }, chatPrice, 1_000_000);
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const otherRatio = priceRequest(emptyBillableUsage, chatPrice, 1_500_000);
    expect(otherRatio).not.toBe(first);
    expect(otherRatio.priceRatioMillionths).toBe(1_500_000);
    const withImage = priceRequest(images(['1024x1024', 'hd']), imagePrice, 1_000_000);
    expect(withImage).not.toBe(priceRequest(images(['1024x1024', 'hd']), imagePrice, 1_000_000));
    expect(Object.isFrozen(withImage)).toBe(false);
    const withAudio = priceRequest({ ...emptyBillableUsage, audioMilliseconds: 1_000 }, chatPrice, 1_000_000);
    expect(withAudio.audioMilliseconds).toBe(1_000);
    expect(priceRequest(emptyBillableUsage, chatPrice, 1_000_000).audioMilliseconds).toBe(0);
  });
});
