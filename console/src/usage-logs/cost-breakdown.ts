import type { UsageLog, UsageLogPricing } from './usage-logs-types';

/** A priced part of a request. */
export type CostComponentKind = 'input' | 'cachedInput' | 'cacheWrite' | 'cacheWriteOneHour' | 'output' | 'image' | 'audio' | 'video';

/** One line of a breakdown: what was used, at which price before the ratio, and its exact amount after the ratio. */
export interface CostComponent {
  kind: CostComponentKind;
  /** tokens for token components, milliseconds for audio, 1 for images and video (their price is their total) */
  quantity: number;
  /** micro-units per million tokens, per minute of audio, or the total of images / video, before the ratio */
  unitPrice: number;
  /** the exact amount in micro-units is numerator / costDenominator */
  numerator: bigint;
}

/** A request's cost explained: each component, their exact sum, and that sum rounded up once. */
export interface CostBreakdown {
  components: CostComponent[];
  priceRatioMillionths: number;
  /** the exact total in micro-units is totalNumerator / costDenominator */
  totalNumerator: bigint;
  /** the total rounded up once to a whole micro-unit: what the request was charged */
  roundedUp: number;
  /** whether roundedUp equals the log's cost (always, for rows the gateway priced) */
  matchesCost: boolean;
}

const tokensPerPriceUnit = 1_000_000n;
const millisecondsPerMinute = 60_000n;
const ratioDenominator = 1_000_000n;

/** Exact amounts are fractions of a micro-unit over this denominator, as the gateway computes them (docs/BILLING.md). */
export const costDenominator = tokensPerPriceUnit * millisecondsPerMinute * ratioDenominator;

/**
 * The cost breakdown of a usage log: uncached, cached, 5-minute and 1-hour cache-write input tokens, output tokens,
 * images, audio and video, each = quantity × price × ratio, summed exactly and rounded up once. Null when the log has
 * no pricing.
 */
export function explainCost(log: Pick<UsageLog, 'promptTokens' | 'cachedTokens' | 'cacheWriteTokens' | 'cacheWriteOneHourTokens' | 'completionTokens' | 'cost' | 'pricing'>): CostBreakdown | null {
  const pricing: UsageLogPricing | null = log.pricing;
  if (pricing === null) return null;
  const cached = Math.min(log.cachedTokens, log.promptTokens);
  const cacheWrite = Math.min(log.cacheWriteTokens, log.promptTokens - cached);
  const oneHourWrite = Math.min(log.cacheWriteOneHourTokens ?? 0, cacheWrite);
  const ratio = BigInt(pricing.priceRatioMillionths);
  const tokenLine = (kind: CostComponentKind, tokens: number, perMillion: number): CostComponent => ({
    kind, quantity: tokens, unitPrice: perMillion, numerator: BigInt(tokens) * BigInt(perMillion) * millisecondsPerMinute * ratio,
  });
  const wholeLine = (kind: CostComponentKind, microUnits: number): CostComponent => ({
    kind, quantity: 1, unitPrice: microUnits, numerator: BigInt(microUnits) * tokensPerPriceUnit * millisecondsPerMinute * ratio,
  });
  const components = [
    tokenLine('input', log.promptTokens - cached - cacheWrite, pricing.inputPerMillion),
    tokenLine('cachedInput', cached, pricing.cachedInputPerMillion),
    tokenLine('cacheWrite', cacheWrite - oneHourWrite, pricing.cacheWritePerMillion),
    tokenLine('cacheWriteOneHour', oneHourWrite, pricing.cacheWriteOneHourPerMillion ?? 0),
    tokenLine('output', log.completionTokens, pricing.outputPerMillion),
    wholeLine('image', pricing.imageCost),
    {
      kind: 'audio' as const,
      quantity: pricing.audioMilliseconds,
      unitPrice: pricing.audioPerMinute,
      numerator: BigInt(pricing.audioMilliseconds) * BigInt(pricing.audioPerMinute) * tokensPerPriceUnit * ratio,
    },
    wholeLine('video', pricing.videoCost),
  ].filter((component) => component.kind === 'input' || component.kind === 'output' || component.numerator > 0n);
  const totalNumerator = components.reduce((sum, component) => sum + component.numerator, 0n);
  const roundedUp = totalNumerator <= 0n ? 0 : Number((totalNumerator + costDenominator - 1n) / costDenominator);
  return { components, priceRatioMillionths: pricing.priceRatioMillionths, totalNumerator, roundedUp, matchesCost: roundedUp === log.cost };
}

/**
 * An exact amount of micro-units (numerator / denominator) shown in currency units with at most `decimals` decimals
 * (at least two), integer arithmetic only; `…` marks an amount cut short. 1 micro-unit → "0.000001".
 */
export function formatExactAmount(numerator: bigint, denominator: bigint, decimals = 12): string {
  const unitDenominator = denominator * 1_000_000n;
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const whole = magnitude / unitDenominator;
  let remainder = magnitude % unitDenominator;
  let digits = '';
  for (let index = 0; index < decimals && remainder > 0n; index += 1) {
    remainder *= 10n;
    digits += String(remainder / unitDenominator);
    remainder %= unitDenominator;
  }
  const fraction = digits.replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}${remainder > 0n ? '…' : ''}`;
}
