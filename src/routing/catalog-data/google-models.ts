import type { CatalogModel } from '../catalog-model.js';
import { textAndImage, textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { imagePrices, tokenPrices } from './token-prices.js';

const g = 'google';

/** Imagen's aspect ratios (1:1, 3:4, 4:3, 9:16, 16:9) as the pixel sizes it renders them at. */
const imagenSizes = ['1024x1024', '896x1280', '1280x896', '768x1408', '1408x768'];

/** Gemini 2.5 Flash Image's aspect ratios, each rendered as 1290 output tokens. */
const flashImageSizes = ['1024x1024', '832x1248', '1248x832', '864x1184', '1184x864', '896x1152', '1152x896', '768x1344', '1344x768', '1536x672'];

/** The same price for every Imagen size (Imagen has no quality tiers; the key's quality is `standard`). */
function imagenPrices(unitsPerImage: number) {
  return { ...tokenPrices(0, 0), perImage: imagePrices(Object.fromEntries(imagenSizes.map((size) => [`${size}:standard`, unitsPerImage]))) };
}

/**
 * Gemini, Gemma, embeddings and Imagen on the Gemini API. Stable Gemini names are aliases of their pinned
 * `-001`/`-002` versions. Prices: Google's paid tier for prompts up to 128K/200K tokens, Nov 2025.
 */
export const googleModels: CatalogModel[] = [
  // Gemini 2.5 (1M context, 64K output)
  { id: 'gemini-2.5-pro', ownedBy: g, kind: 'chat', created: releaseDate('2025-06-17'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.25, 10, { cachedInput: 0.31 }) },
  { id: 'gemini-2.5-pro-preview-06-05', ownedBy: g, kind: 'chat', created: releaseDate('2025-06-05'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.25, 10, { cachedInput: 0.31 }) },
  { id: 'gemini-2.5-pro-preview-05-06', ownedBy: g, kind: 'chat', created: releaseDate('2025-05-06'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.25, 10, { cachedInput: 0.31 }) },
  { id: 'gemini-2.5-pro-preview-03-25', ownedBy: g, kind: 'chat', created: releaseDate('2025-03-25'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.25, 10, { cachedInput: 0.31 }) },
  { id: 'gemini-2.5-flash', ownedBy: g, kind: 'chat', created: releaseDate('2025-06-17'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.3, 2.5, { cachedInput: 0.075 }) },
  { id: 'gemini-2.5-flash-preview-09-2025', ownedBy: g, kind: 'chat', created: releaseDate('2025-09-25'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.3, 2.5, { cachedInput: 0.075 }) },
  { id: 'gemini-2.5-flash-preview-05-20', ownedBy: g, kind: 'chat', created: releaseDate('2025-05-20'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.15, 0.6, { cachedInput: 0.0375 }) },
  { id: 'gemini-2.5-flash-preview-04-17', ownedBy: g, kind: 'chat', created: releaseDate('2025-04-17'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.15, 0.6, { cachedInput: 0.0375 }) },
  { id: 'gemini-2.5-flash-lite', ownedBy: g, kind: 'chat', created: releaseDate('2025-07-22'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.1, 0.4, { cachedInput: 0.025 }) },
  { id: 'gemini-2.5-flash-lite-preview-09-2025', ownedBy: g, kind: 'chat', created: releaseDate('2025-09-25'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.1, 0.4, { cachedInput: 0.025 }) },
  { id: 'gemini-2.5-flash-lite-preview-06-17', ownedBy: g, kind: 'chat', created: releaseDate('2025-06-17'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.1, 0.4, { cachedInput: 0.025 }) },
  // Gemini 2.0 (1M context; 2.0 Pro experimental 2M)
  { id: 'gemini-2.0-flash-001', aliases: ['gemini-2.0-flash'], ownedBy: g, kind: 'chat', created: releaseDate('2025-02-05'), contextWindow: 1_048_576, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.1, 0.4, { cachedInput: 0.025 }) },
  { id: 'gemini-2.0-flash-lite-001', aliases: ['gemini-2.0-flash-lite'], ownedBy: g, kind: 'chat', created: releaseDate('2025-02-25'), contextWindow: 1_048_576, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.075, 0.3) },
  { id: 'gemini-2.0-flash-exp', ownedBy: g, kind: 'chat', created: releaseDate('2024-12-11'), contextWindow: 1_048_576, maxOutputTokens: 8_192, inputModalities: [...textAndImage] },
  { id: 'gemini-2.0-flash-thinking-exp-01-21', ownedBy: g, kind: 'chat', created: releaseDate('2025-01-21'), contextWindow: 1_048_576, maxOutputTokens: 65_536, inputModalities: [...textAndImage] },
  { id: 'gemini-2.0-pro-exp-02-05', ownedBy: g, kind: 'chat', created: releaseDate('2025-02-05'), contextWindow: 2_097_152, maxOutputTokens: 8_192, inputModalities: [...textAndImage] },
  // Gemini 1.5 (Pro 2M, Flash 1M)
  { id: 'gemini-1.5-pro-002', aliases: ['gemini-1.5-pro', 'gemini-1.5-pro-latest'], ownedBy: g, kind: 'chat', created: releaseDate('2024-09-24'), contextWindow: 2_097_152, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.25, 5, { cachedInput: 0.3125 }) },
  { id: 'gemini-1.5-pro-001', ownedBy: g, kind: 'chat', created: releaseDate('2024-05-24'), contextWindow: 2_097_152, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.25, 5, { cachedInput: 0.3125 }) },
  { id: 'gemini-1.5-flash-002', aliases: ['gemini-1.5-flash', 'gemini-1.5-flash-latest'], ownedBy: g, kind: 'chat', created: releaseDate('2024-09-24'), contextWindow: 1_048_576, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.075, 0.3, { cachedInput: 0.01875 }) },
  { id: 'gemini-1.5-flash-001', ownedBy: g, kind: 'chat', created: releaseDate('2024-05-24'), contextWindow: 1_048_576, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.075, 0.3, { cachedInput: 0.01875 }) },
  { id: 'gemini-1.5-flash-8b-001', aliases: ['gemini-1.5-flash-8b', 'gemini-1.5-flash-8b-latest'], ownedBy: g, kind: 'chat', created: releaseDate('2024-10-03'), contextWindow: 1_048_576, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.0375, 0.15, { cachedInput: 0.01 }) },
  // Gemma 3 open models (128K context; the 4B and larger read images)
  { id: 'gemma-3-27b-it', ownedBy: g, kind: 'chat', created: releaseDate('2025-03-12'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textAndImage] },
  { id: 'gemma-3-12b-it', ownedBy: g, kind: 'chat', created: releaseDate('2025-03-12'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textAndImage] },
  { id: 'gemma-3-4b-it', ownedBy: g, kind: 'chat', created: releaseDate('2025-03-12'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textAndImage] },
  // Embeddings
  { id: 'gemini-embedding-001', ownedBy: g, kind: 'embedding', created: releaseDate('2025-07-14'), contextWindow: 2_048, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.15, 0) },
  { id: 'text-embedding-004', ownedBy: g, kind: 'embedding', created: releaseDate('2024-05-14'), contextWindow: 2_048, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.025, 0) },
  // Images
  { id: 'imagen-4.0-generate-001', ownedBy: g, kind: 'image', created: releaseDate('2025-08-14'), inputModalities: [...textOnly], imageSizes: [...imagenSizes], maxImagesPerRequest: 4, defaultPrices: imagenPrices(0.04) },
  { id: 'imagen-4.0-ultra-generate-001', ownedBy: g, kind: 'image', created: releaseDate('2025-08-14'), inputModalities: [...textOnly], imageSizes: [...imagenSizes], maxImagesPerRequest: 1, defaultPrices: imagenPrices(0.06) },
  { id: 'imagen-4.0-fast-generate-001', ownedBy: g, kind: 'image', created: releaseDate('2025-08-14'), inputModalities: [...textOnly], imageSizes: [...imagenSizes], maxImagesPerRequest: 4, defaultPrices: imagenPrices(0.02) },
  { id: 'imagen-3.0-generate-002', ownedBy: g, kind: 'image', created: releaseDate('2025-02-06'), inputModalities: [...textOnly], imageSizes: [...imagenSizes], maxImagesPerRequest: 4, defaultPrices: imagenPrices(0.03) },
  {
    id: 'gemini-2.5-flash-image', aliases: ['gemini-2.5-flash-image-preview'], ownedBy: g, kind: 'image', created: releaseDate('2025-08-26'), inputModalities: [...textAndImage],
    imageSizes: [...flashImageSizes], supportsImageEdits: true, maxImagesPerRequest: 1,
    defaultPrices: { ...tokenPrices(0.3, 30), perImage: imagePrices(Object.fromEntries(flashImageSizes.map((size) => [`${size}:standard`, 0.039]))) },
  },
];
