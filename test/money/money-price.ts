// The one price every model of the money matrix is billed at, and the expected charge computed by hand from it.
import type { ModelPrice } from '../../src/billing/model-price.js';

/** Micro-units per million tokens of each kind: five different, fractional per-token rates, so a token billed at the wrong rate or a rounding per component changes the charge. */
export const moneyRates = {
  inputPerMillion: 1_500_000,
  cachedInputPerMillion: 150_000,
  cacheWritePerMillion: 1_875_000,
  cacheWriteOneHourPerMillion: 3_100_000,
  outputPerMillion: 6_250_000,
} as const;

/** Micro-units per generated image, per minute of transcribed audio and per second of video. */
export const moneyMediaRates = { perImage: 1_250, audioPerMinute: 61_000, videoPerSecond: 2_500 } as const;

/** The matrix's price for one public model id. */
export function moneyPrice(modelId: string): ModelPrice {
  return {
    modelId,
    ...moneyRates,
    imagePrices: { default: moneyMediaRates.perImage },
    audioPerMinute: moneyMediaRates.audioPerMinute,
    videoPerSecond: moneyMediaRates.videoPerSecond,
  };
}

/** Token usage as a vendor reports it, split the way it is priced (every count a part of `promptTokens` except output). */
export interface ReportedUsage {
  /** every input token: uncached, cache reads and cache writes */
  promptTokens: number;
  cacheReadTokens: number;
  /** cache writes at the 5-minute TTL */
  cacheWriteFiveMinuteTokens: number;
  cacheWriteOneHourTokens: number;
  /** visible output plus hidden reasoning */
  outputTokens: number;
}

const microUnitsPerMillion = 1_000_000n;

/** A sum of micro-units per million, rounded up once to whole micro-units (the documented rule: never per component). */
function roundUpMillionths(perMillionSum: bigint): number {
  return Number((perMillionSum + microUnitsPerMillion - 1n) / microUnitsPerMillion);
}

/** What `usage` costs at the matrix's price, in micro-units, computed here and not by the gateway's code. */
export function expectedTokenCharge(usage: ReportedUsage): number {
  const uncached =
    usage.promptTokens - usage.cacheReadTokens - usage.cacheWriteFiveMinuteTokens - usage.cacheWriteOneHourTokens;
  const sum =
    BigInt(uncached) * BigInt(moneyRates.inputPerMillion) +
    BigInt(usage.cacheReadTokens) * BigInt(moneyRates.cachedInputPerMillion) +
    BigInt(usage.cacheWriteFiveMinuteTokens) * BigInt(moneyRates.cacheWritePerMillion) +
    BigInt(usage.cacheWriteOneHourTokens) * BigInt(moneyRates.cacheWriteOneHourPerMillion) +
    BigInt(usage.outputTokens) * BigInt(moneyRates.outputPerMillion);
  return roundUpMillionths(sum);
}

/** Input tokens at the input rate and output tokens at the output rate, rounded up once (an estimate-based charge). */
export function expectedInputOutputCharge(inputTokens: number, outputTokens: number): number {
  return expectedTokenCharge({
    promptTokens: inputTokens,
    cacheReadTokens: 0,
    cacheWriteFiveMinuteTokens: 0,
    cacheWriteOneHourTokens: 0,
    outputTokens,
  });
}
