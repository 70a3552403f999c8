import type { CatalogModel } from '../catalog-model.js';
import { textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { toMicroUnits, tokenPrices } from './token-prices.js';

/** Durations in seconds the spec allows for a video task (section 8); the vendor adapter maps each to a length it makes. */
const videoDurations = [5, 10, 15, 20];

/**
 * The spec's pair for one vendor model (section 4.9): a portrait id that is the vendor's model name, and a landscape
 * twin whose id is the portrait id plus `-landscape`; both name the same upstream model.
 */
function videoModelPair(
  upstreamModelId: string,
  ownedBy: string,
  released: string,
  dollarsPerSecond: number,
): CatalogModel[] {
  const shared = {
    ownedBy,
    kind: 'video' as const,
    created: releaseDate(released),
    inputModalities: [...textOnly],
    videoDurations: [...videoDurations],
    videoUpstreamModelId: upstreamModelId,
    defaultPrices: { ...tokenPrices(0, 0), perVideoSecond: toMicroUnits(dollarsPerSecond) },
  };
  return [
    { id: upstreamModelId, ...shared, videoOrientation: 'portrait' },
    { id: `${upstreamModelId}-landscape`, ...shared, videoOrientation: 'landscape' },
  ];
}

/**
 * Video models, priced per generated second at the portrait/landscape 720p sizes:
 * - Sora 2 $0.10/s, Sora 2 Pro $0.30/s at 720x1280 and 1280x720 (openai.com/api/pricing; Pro's 1024x1792 is $0.50/s);
 * - Veo 3 $0.40/s, Veo 3 Fast $0.15/s, video with audio (ai.google.dev/gemini-api/docs/pricing, after the
 *   September 2025 price cut).
 */
export const videoModels: CatalogModel[] = [
  ...videoModelPair('sora-2', 'openai', '2025-10-06', 0.1),
  ...videoModelPair('sora-2-pro', 'openai', '2025-10-06', 0.3),
  ...videoModelPair('veo-3.0-generate-001', 'google', '2025-07-17', 0.4),
  ...videoModelPair('veo-3.0-fast-generate-001', 'google', '2025-07-31', 0.15),
];
