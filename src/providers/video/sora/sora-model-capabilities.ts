import type { VideoSize } from '../video-size.js';

/** The lengths (seconds) every Sora 2 model makes; OpenAI's `seconds` is the string form of one of them. */
export const soraSeconds: readonly number[] = [4, 8, 12];

const standardSizes: readonly VideoSize[] = [
  { width: 720, height: 1280 },
  { width: 1280, height: 720 },
];
const proSizes: readonly VideoSize[] = [...standardSizes, { width: 1024, height: 1792 }, { width: 1792, height: 1024 }];

/** Sora model names (snapshots included) to the sizes each renders (openai-openapi.yaml `VideoSize`, OpenAI's pricing page). */
const sizesByModel = new Map<string, readonly VideoSize[]>([
  ['sora-2', standardSizes],
  ['sora-2-2025-10-06', standardSizes],
  ['sora-2-2025-12-08', standardSizes],
  ['sora-2-pro', proSizes],
  ['sora-2-pro-2025-10-06', proSizes],
]);

/** The sizes a Sora model renders; empty for a model Sora does not have. */
export function soraSizesFor(upstreamModelId: string): readonly VideoSize[] {
  return sizesByModel.get(upstreamModelId) ?? [];
}

/** The lengths a Sora model makes; empty for a model Sora does not have. */
export function soraSecondsFor(upstreamModelId: string): readonly number[] {
  return sizesByModel.has(upstreamModelId) ? soraSeconds : [];
}
