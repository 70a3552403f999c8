import type { BillableUsage } from './billable-usage.js';
import { fallbackImagePrice } from './fallback-image-price.js';
import { findImagePrice, type ModelPrice } from './model-price.js';

/**
 * What a settled request was priced with, kept in its usage log so the bill can be explained: the token prices
 * before the ratio, the ratio applied (group × premium) and the other components before the ratio. Plain integers.
 */
export interface RequestPricing {
  /** micro-units per million uncached input tokens, before the ratio */
  inputPerMillion: number;
  /** micro-units per million input tokens read from the prompt cache, before the ratio */
  cachedInputPerMillion: number;
  /** micro-units per million input tokens written to the prompt cache, before the ratio */
  cacheWritePerMillion: number;
  /** micro-units per million output tokens, before the ratio */
  outputPerMillion: number;
  /** the price ratio applied, in millionths (group ratio × premium ratio) */
  priceRatioMillionths: number;
  /** micro-units of generated images, before the ratio */
  imageCost: number;
  /** milliseconds of transcribed audio */
  audioMilliseconds: number;
  /** micro-units per minute of audio, before the ratio */
  audioPerMinute: number;
  /** micro-units of generated video, before the ratio */
  videoCost: number;
}

/** The token counts of a request as its usage log keeps them (cached and cache-write tokens are part of prompt tokens). */
export interface PricedTokens {
  promptTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  completionTokens: number;
}

/** One priced part of a request: an exact amount of micro-units, `numerator / costDenominator`, after the ratio. */
export interface CostComponent {
  kind: 'input' | 'cachedInput' | 'cacheWrite' | 'output' | 'image' | 'audio' | 'video';
  numerator: bigint;
}

const tokensPerPriceUnit = 1_000_000n;
const millisecondsPerMinute = 60_000n;
const ratioDenominator = 1_000_000n;

/** Every component is an exact fraction of a micro-unit over this denominator (tokens per million × ms per minute × ratio). */
export const costDenominator = tokensPerPriceUnit * millisecondsPerMinute * ratioDenominator;

/** The prices and ratio a request is charged with, and what its images, audio and video cost before the ratio. */
export function priceRequest(usage: BillableUsage, price: ModelPrice, priceRatioMillionths: number): RequestPricing {
  let imageCost = 0;
  for (const image of usage.images) imageCost += findImagePrice(price, image.size, image.quality) ?? fallbackImagePrice;
  return {
    inputPerMillion: price.inputPerMillion,
    cachedInputPerMillion: price.cachedInputPerMillion,
    cacheWritePerMillion: price.cacheWritePerMillion,
    outputPerMillion: price.outputPerMillion,
    priceRatioMillionths,
    imageCost,
    audioMilliseconds: usage.audioMilliseconds,
    audioPerMinute: price.audioPerMinute,
    videoCost: usage.videoSeconds * price.videoPerSecond,
  };
}

/**
 * Each priced part of a request as an exact fraction of a micro-unit after the ratio: uncached, cached and
 * cache-write input tokens, output tokens, images, audio and video (tokens × price per million × ratio, ...).
 */
export function listCostComponents(tokens: PricedTokens, pricing: RequestPricing): CostComponent[] {
  const cachedTokens = BigInt(Math.min(tokens.cachedTokens, tokens.promptTokens));
  const cacheWriteTokens = BigInt(Math.min(tokens.cacheWriteTokens, tokens.promptTokens - Number(cachedTokens)));
  const uncachedTokens = BigInt(tokens.promptTokens) - cachedTokens - cacheWriteTokens;
  const ratio = BigInt(pricing.priceRatioMillionths);
  const perToken = (count: bigint, perMillion: number) => count * BigInt(perMillion) * millisecondsPerMinute * ratio;
  const whole = (microUnits: number) => BigInt(microUnits) * tokensPerPriceUnit * millisecondsPerMinute * ratio;
  return [
    { kind: 'input', numerator: perToken(uncachedTokens, pricing.inputPerMillion) },
    { kind: 'cachedInput', numerator: perToken(cachedTokens, pricing.cachedInputPerMillion) },
    { kind: 'cacheWrite', numerator: perToken(cacheWriteTokens, pricing.cacheWritePerMillion) },
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
  const cachedTokens = Math.min(tokens.cachedTokens, tokens.promptTokens);
  const cacheWriteTokens = Math.min(tokens.cacheWriteTokens, tokens.promptTokens - cachedTokens);
  const uncachedTokens = tokens.promptTokens - cachedTokens - cacheWriteTokens;
  // cost = ceil(ratio × Σ tokens × price per million / 10^12), the components' common factors cancelled.
  const uncachedInput = uncachedTokens * pricing.inputPerMillion;
  const cachedInput = cachedTokens * pricing.cachedInputPerMillion;
  const cacheWrite = cacheWriteTokens * pricing.cacheWritePerMillion;
  const output = tokens.completionTokens * pricing.outputPerMillion;
  const perMillionSum = uncachedInput + cachedInput + cacheWrite + output;
  const exact =
    Number.isSafeInteger(uncachedInput) &&
    Number.isSafeInteger(cachedInput) &&
    Number.isSafeInteger(cacheWrite) &&
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
