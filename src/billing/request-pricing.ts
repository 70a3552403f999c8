import type { RequestPricingRecord } from '../storage/price-records.js';
import type { BillableUsage } from './billable-usage.js';
import { fallbackImagePrice } from './fallback-image-price.js';
import { findImagePrice, oneHourCacheWritePerMillion, type ModelPrice } from './model-price.js';

/** What a settled request was priced with, kept in its usage log so the bill can be explained (plain integers). */
export type RequestPricing = RequestPricingRecord;

/** The token counts of a request as its usage log keeps them (cached and cache-write tokens are part of prompt tokens). */
export interface PricedTokens {
  promptTokens: number;
  cachedTokens: number;
  /** cache writes at every TTL */
  cacheWriteTokens: number;
  /** of cacheWriteTokens, those written with a 1-hour TTL (absent: none) */
  cacheWriteOneHourTokens?: number;
  completionTokens: number;
}

/** One priced part of a request: an exact amount of micro-units, `numerator / costDenominator`, after the ratio. */
export interface CostComponent {
  kind: 'input' | 'cachedInput' | 'cacheWrite' | 'cacheWriteOneHour' | 'output' | 'image' | 'audio' | 'video';
  numerator: bigint;
}

const tokensPerPriceUnit = 1_000_000n;
const millisecondsPerMinute = 60_000n;
const ratioDenominator = 1_000_000n;

/** Every component is an exact fraction of a micro-unit over this denominator (tokens per million × ms per minute × ratio). */
export const costDenominator = tokensPerPriceUnit * millisecondsPerMinute * ratioDenominator;

/**
 * A request's pricing without images, audio or video, per price and ratio: its usage log keeps it until the batch is
 * written (up to 256 requests), so requests priced alike share one frozen object instead of one each. Prices are
 * replaced, never changed, when they reload, so a price's entry goes with it.
 */
const tokenOnlyPricings = new WeakMap<ModelPrice, Map<number, RequestPricing>>();
/** Ratios kept per price at most (groups × premium ratios in use); a price beyond it gets a new object per request. */
const sharedRatiosPerPrice = 64;

/** The prices and ratio a request is charged with, and what its images, audio and video cost before the ratio. */
export function priceRequest(usage: BillableUsage, price: ModelPrice, priceRatioMillionths: number): RequestPricing {
  const tokensOnly = usage.images.length === 0 && usage.audioMilliseconds === 0 && usage.videoSeconds === 0;
  if (!tokensOnly) return pricingOf(usage, price, priceRatioMillionths);
  let byRatio = tokenOnlyPricings.get(price);
  if (byRatio === undefined) {
    byRatio = new Map();
    tokenOnlyPricings.set(price, byRatio);
  }
  let pricing = byRatio.get(priceRatioMillionths);
  if (pricing === undefined) {
    pricing = Object.freeze(pricingOf(usage, price, priceRatioMillionths));
    if (byRatio.size < sharedRatiosPerPrice) byRatio.set(priceRatioMillionths, pricing);
  }
  return pricing;
}

function pricingOf(usage: BillableUsage, price: ModelPrice, priceRatioMillionths: number): RequestPricing {
  let imageCost = 0;
  for (const image of usage.images) imageCost += findImagePrice(price, image.size, image.quality) ?? fallbackImagePrice;
  return {
    inputPerMillion: price.inputPerMillion,
    cachedInputPerMillion: price.cachedInputPerMillion,
    cacheWritePerMillion: price.cacheWritePerMillion,
    cacheWriteOneHourPerMillion: oneHourCacheWritePerMillion(price),
    outputPerMillion: price.outputPerMillion,
    priceRatioMillionths,
    imageCost,
    audioMilliseconds: usage.audioMilliseconds,
    audioPerMinute: price.audioPerMinute,
    videoCost: usage.videoSeconds * price.videoPerSecond,
  };
}

/** The prompt split into its priced parts: counts above the prompt are capped (cache reads first, then writes). */
function splitPrompt(tokens: PricedTokens): {
  uncached: number;
  cached: number;
  fiveMinuteWrites: number;
  oneHourWrites: number;
} {
  const cached = Math.min(tokens.cachedTokens, tokens.promptTokens);
  const writes = Math.min(tokens.cacheWriteTokens, tokens.promptTokens - cached);
  const oneHourWrites = Math.min(tokens.cacheWriteOneHourTokens ?? 0, writes);
  return {
    uncached: tokens.promptTokens - cached - writes,
    cached,
    fiveMinuteWrites: writes - oneHourWrites,
    oneHourWrites,
  };
}

/**
 * Each priced part of a request as an exact fraction of a micro-unit after the ratio: uncached, cached, 5-minute and
 * 1-hour cache-write input tokens, output tokens, images, audio and video (tokens × price per million × ratio, ...).
 */
export function listCostComponents(tokens: PricedTokens, pricing: RequestPricing): CostComponent[] {
  const prompt = splitPrompt(tokens);
  const ratio = BigInt(pricing.priceRatioMillionths);
  const perToken = (count: bigint, perMillion: number) => count * BigInt(perMillion) * millisecondsPerMinute * ratio;
  const whole = (microUnits: number) => BigInt(microUnits) * tokensPerPriceUnit * millisecondsPerMinute * ratio;
  return [
    { kind: 'input', numerator: perToken(BigInt(prompt.uncached), pricing.inputPerMillion) },
    { kind: 'cachedInput', numerator: perToken(BigInt(prompt.cached), pricing.cachedInputPerMillion) },
    { kind: 'cacheWrite', numerator: perToken(BigInt(prompt.fiveMinuteWrites), pricing.cacheWritePerMillion) },
    {
      kind: 'cacheWriteOneHour',
      numerator: perToken(BigInt(prompt.oneHourWrites), pricing.cacheWriteOneHourPerMillion),
    },
    { kind: 'output', numerator: perToken(BigInt(tokens.completionTokens), pricing.outputPerMillion) },
    { kind: 'image', numerator: whole(pricing.imageCost) },
    {
      kind: 'audio',
      numerator: BigInt(pricing.audioMilliseconds) * BigInt(pricing.audioPerMinute) * tokensPerPriceUnit * ratio,
    },
    { kind: 'video', numerator: whole(pricing.videoCost) },
  ];
}

/** The cost in micro-units: the exact sum of every component, rounded up once (never per component). */
export function costOfPricing(tokens: PricedTokens, pricing: RequestPricing): number {
  return tokenCostInSafeIntegers(tokens, pricing) ?? costInBigIntegers(tokens, pricing);
}

function costInBigIntegers(tokens: PricedTokens, pricing: RequestPricing): number {
  let numerator = 0n;
  for (const component of listCostComponents(tokens, pricing)) numerator += component.numerator;
  if (numerator <= 0n) return 0;
  return Number((numerator + costDenominator - 1n) / costDenominator);
}

/** Micro-units per million tokens times the ratio in millionths: the denominator of a token-only cost. */
const tokenCostDenominator = 1e12;

/**
 * The same exact cost for the usual request, tokens only, in plain numbers: every product and sum is checked to be a
 * safe integer (an inexact one would exceed 2^53 and fail the check), so the result equals the BigInt sum's. Saves
 * some thirty BigInts per request; undefined when a check fails or anything but tokens is priced.
 */
function tokenCostInSafeIntegers(tokens: PricedTokens, pricing: RequestPricing): number | undefined {
  if (pricing.imageCost !== 0 || pricing.audioMilliseconds !== 0 || pricing.videoCost !== 0) return undefined;
  const prompt = splitPrompt(tokens);
  // cost = ceil(ratio × Σ tokens × price per million / 10^12), the components' common factors cancelled.
  const uncachedInput = prompt.uncached * pricing.inputPerMillion;
  const cachedInput = prompt.cached * pricing.cachedInputPerMillion;
  const cacheWrite = prompt.fiveMinuteWrites * pricing.cacheWritePerMillion;
  const cacheWriteOneHour = prompt.oneHourWrites * pricing.cacheWriteOneHourPerMillion;
  const output = tokens.completionTokens * pricing.outputPerMillion;
  const perMillionSum = uncachedInput + cachedInput + cacheWrite + cacheWriteOneHour + output;
  const exact =
    Number.isSafeInteger(uncachedInput) &&
    Number.isSafeInteger(cachedInput) &&
    Number.isSafeInteger(cacheWrite) &&
    Number.isSafeInteger(cacheWriteOneHour) &&
    Number.isSafeInteger(output);
  if (!exact || !Number.isSafeInteger(perMillionSum)) return undefined;
  const numerator = perMillionSum * pricing.priceRatioMillionths;
  if (!Number.isSafeInteger(numerator)) return undefined;
  if (numerator <= 0) return 0;
  // The float quotient never crosses an integer: below 2^53 a quotient by 10^12 is under 9,008, where half an ulp is
  // less than 10^-12, the least distance of numerator / 10^12 from an integer. So floor and remainder are exact.
  const quotient = Math.floor(numerator / tokenCostDenominator);
  const remainder = numerator - quotient * tokenCostDenominator;
  return remainder > 0 ? quotient + 1 : quotient;
}
