import type { CatalogModel } from '../catalog-model.js';
import { textAndImage, textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { tokenPrices } from './token-prices.js';

/** Smaller vendors with OpenAI-compatible APIs (Moonshot, Perplexity, Zhipu) and AI21 on Bedrock. Prices: their lists, Nov 2025. */
export const otherVendorModels: CatalogModel[] = [
  { id: 'kimi-k2-0905-preview', ownedBy: 'moonshot', kind: 'chat', created: releaseDate('2025-09-05'), contextWindow: 262_144, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.6, 2.5, { cachedInput: 0.15 }) },
  { id: 'kimi-k2-0711-preview', ownedBy: 'moonshot', kind: 'chat', created: releaseDate('2025-07-11'), contextWindow: 131_072, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.6, 2.5, { cachedInput: 0.15 }) },
  { id: 'kimi-k2-turbo-preview', ownedBy: 'moonshot', kind: 'chat', created: releaseDate('2025-08-01'), contextWindow: 262_144, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.15, 8, { cachedInput: 0.15 }) },
  { id: 'moonshot-v1-128k', ownedBy: 'moonshot', kind: 'chat', created: releaseDate('2024-03-18'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(2, 5) },
  { id: 'sonar', ownedBy: 'perplexity', kind: 'chat', created: releaseDate('2025-01-21'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1, 1) },
  { id: 'sonar-pro', ownedBy: 'perplexity', kind: 'chat', created: releaseDate('2025-01-21'), contextWindow: 200_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(3, 15) },
  { id: 'sonar-reasoning', ownedBy: 'perplexity', kind: 'chat', created: releaseDate('2025-01-29'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1, 5) },
  { id: 'sonar-reasoning-pro', ownedBy: 'perplexity', kind: 'chat', created: releaseDate('2025-02-13'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2, 8) },
  { id: 'sonar-deep-research', ownedBy: 'perplexity', kind: 'chat', created: releaseDate('2025-02-14'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(2, 8) },
  { id: 'glm-4.5', ownedBy: 'zhipu', kind: 'chat', created: releaseDate('2025-07-28'), contextWindow: 131_072, maxOutputTokens: 98_304, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.6, 2.2, { cachedInput: 0.11 }) },
  { id: 'glm-4.5-air', ownedBy: 'zhipu', kind: 'chat', created: releaseDate('2025-07-28'), contextWindow: 131_072, maxOutputTokens: 98_304, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.2, 1.1, { cachedInput: 0.03 }) },
  { id: 'glm-4.5v', ownedBy: 'zhipu', kind: 'chat', created: releaseDate('2025-08-11'), contextWindow: 65_536, maxOutputTokens: 16_384, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.6, 1.8, { cachedInput: 0.11 }) },
  { id: 'ai21.jamba-1-5-large-v1:0', ownedBy: 'ai21', kind: 'chat', created: releaseDate('2024-08-22'), contextWindow: 256_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(2, 8) },
  { id: 'ai21.jamba-1-5-mini-v1:0', ownedBy: 'ai21', kind: 'chat', created: releaseDate('2024-08-22'), contextWindow: 256_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.2, 0.4) },
];
