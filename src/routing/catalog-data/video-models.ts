import type { CatalogModel } from '../catalog-model.js';
import { textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { toMicroUnits, tokenPrices } from './token-prices.js';

/** Durations in seconds the spec allows for a video task (section 8). */
const videoDurations = [5, 10, 15, 20];

/**
 * The spec's two video models (section 4.9): a portrait one, and a landscape one whose id is the portrait id plus
 * `-landscape`. Sora 2 renders 720x1280 portrait and 1280x720 landscape at OpenAI's $0.10 per second.
 */
export const videoModels: CatalogModel[] = [
  { id: 'sora-2', ownedBy: 'openai', kind: 'video', created: releaseDate('2025-10-06'), inputModalities: [...textOnly], videoDurations: [...videoDurations], defaultPrices: { ...tokenPrices(0, 0), perVideoSecond: toMicroUnits(0.1) } },
  { id: 'sora-2-landscape', ownedBy: 'openai', kind: 'video', created: releaseDate('2025-10-06'), inputModalities: [...textOnly], videoDurations: [...videoDurations], defaultPrices: { ...tokenPrices(0, 0), perVideoSecond: toMicroUnits(0.1) } },
];
