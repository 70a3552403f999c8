import type { CatalogModel } from '../catalog-model.js';
import { textAndImage, textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { imagePrices, tokenPrices } from './token-prices.js';

const x = 'xai';

/** xAI's Grok models; xAI's own `-latest` and undated names are aliases of the dated ids. Prices: xAI's list, Nov 2025. */
export const xAiModels: CatalogModel[] = [
  { id: 'grok-4-0709', aliases: ['grok-4', 'grok-4-latest'], ownedBy: x, kind: 'chat', created: releaseDate('2025-07-09'), contextWindow: 256_000, maxOutputTokens: 64_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(3, 15, { cachedInput: 0.75 }) },
  { id: 'grok-4-fast-reasoning', ownedBy: x, kind: 'chat', created: releaseDate('2025-09-19'), contextWindow: 2_000_000, maxOutputTokens: 30_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.2, 0.5, { cachedInput: 0.05 }) },
  { id: 'grok-4-fast-non-reasoning', ownedBy: x, kind: 'chat', created: releaseDate('2025-09-19'), contextWindow: 2_000_000, maxOutputTokens: 30_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.2, 0.5, { cachedInput: 0.05 }) },
  { id: 'grok-code-fast-1', ownedBy: x, kind: 'chat', created: releaseDate('2025-08-28'), contextWindow: 256_000, maxOutputTokens: 10_000, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.2, 1.5, { cachedInput: 0.02 }) },
  { id: 'grok-3', aliases: ['grok-3-latest', 'grok-3-beta'], ownedBy: x, kind: 'chat', created: releaseDate('2025-04-09'), contextWindow: 131_072, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(3, 15, { cachedInput: 0.75 }) },
  { id: 'grok-3-fast', aliases: ['grok-3-fast-latest', 'grok-3-fast-beta'], ownedBy: x, kind: 'chat', created: releaseDate('2025-04-09'), contextWindow: 131_072, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(5, 25, { cachedInput: 1.25 }) },
  { id: 'grok-3-mini', aliases: ['grok-3-mini-latest', 'grok-3-mini-beta'], ownedBy: x, kind: 'chat', created: releaseDate('2025-04-09'), contextWindow: 131_072, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.3, 0.5, { cachedInput: 0.075 }) },
  { id: 'grok-3-mini-fast', aliases: ['grok-3-mini-fast-latest', 'grok-3-mini-fast-beta'], ownedBy: x, kind: 'chat', created: releaseDate('2025-04-09'), contextWindow: 131_072, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.6, 4, { cachedInput: 0.15 }) },
  { id: 'grok-2-1212', aliases: ['grok-2', 'grok-2-latest'], ownedBy: x, kind: 'chat', created: releaseDate('2024-12-12'), contextWindow: 131_072, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(2, 10) },
  { id: 'grok-2-vision-1212', aliases: ['grok-2-vision', 'grok-2-vision-latest'], ownedBy: x, kind: 'chat', created: 1733961600, contextWindow: 32_768, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2, 10) },
  { id: 'grok-beta', ownedBy: x, kind: 'chat', created: releaseDate('2024-11-04'), contextWindow: 131_072, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(5, 15) },
  { id: 'grok-vision-beta', ownedBy: x, kind: 'chat', created: releaseDate('2024-11-04'), contextWindow: 8_192, maxOutputTokens: 4_096, inputModalities: [...textAndImage], defaultPrices: tokenPrices(5, 15) },
  {
    id: 'grok-2-image-1212', aliases: ['grok-2-image', 'grok-2-image-latest'], ownedBy: x, kind: 'image', created: releaseDate('2025-03-19'), inputModalities: [...textOnly], imageSizes: ['1024x768'], maxImagesPerRequest: 10,
    defaultPrices: { ...tokenPrices(0, 0), perImage: imagePrices({ '1024x768:standard': 0.07 }) },
  },
];
