import type { VideoSize } from '../video-size.js';

/** Veo 3 on the Gemini API: 720p in 16:9 or 9:16 (1080p exists for 16:9 and 8 s only, not offered here). */
const veoSizes: readonly VideoSize[] = [
  { width: 720, height: 1280 },
  { width: 1280, height: 720 },
];

/** Veo model names to the lengths each makes: "Video length: 4, 6, or 8 seconds" (Google's veo-3.0-generate-001 model page). */
const secondsByModel = new Map<string, readonly number[]>([
  ['veo-3.0-generate-001', [4, 6, 8]],
  ['veo-3.0-fast-generate-001', [4, 6, 8]],
]);

/** The lengths a Veo model makes; empty for a model the adapter does not know. */
export function veoSecondsFor(upstreamModelId: string): readonly number[] {
  return secondsByModel.get(upstreamModelId) ?? [];
}

/** The sizes a Veo model renders; empty for a model the adapter does not know. */
export function veoSizesFor(upstreamModelId: string): readonly VideoSize[] {
  return secondsByModel.has(upstreamModelId) ? veoSizes : [];
}
