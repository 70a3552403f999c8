import type { ModelPrices } from './models-types';

/** One non-token price of a model: what it is charged by, and the amount in micro-units. */
export type OtherPrice =
  | { kind: 'image'; variant: string; amount: number }
  | { kind: 'audio'; amount: number }
  | { kind: 'video'; amount: number };

/** The image (per size and quality, sorted), audio and video prices a model has, in that order. */
export function otherPricesOf(prices: ModelPrices): OtherPrice[] {
  const images: OtherPrice[] = Object.entries(prices.imagePrices ?? {})
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([variant, amount]) => ({ kind: 'image', variant, amount }));
  return [
    ...images,
    ...(prices.audioPerMinute ? [{ kind: 'audio' as const, amount: prices.audioPerMinute }] : []),
    ...(prices.videoPerSecond ? [{ kind: 'video' as const, amount: prices.videoPerSecond }] : []),
  ];
}
