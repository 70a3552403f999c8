import type { CatalogModel } from '../catalog-model.js';
import { textAndImage, textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { tokenPrices } from './token-prices.js';

const q = 'qwen';

/**
 * Alibaba's Qwen on DashScope (international endpoint), under DashScope's names. Prices: DashScope international
 * list for the lowest input tier, Nov 2025. qwen-max keeps its 32K window (see the catalog test's old-model list).
 */
export const qwenModels: CatalogModel[] = [
  { id: 'qwen3-max', ownedBy: q, kind: 'chat', created: releaseDate('2025-09-24'), contextWindow: 262_144, maxOutputTokens: 65_536, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.2, 6) },
  { id: 'qwen-max', ownedBy: q, kind: 'chat', created: releaseDate('2025-01-25'), contextWindow: 32_768, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.6, 6.4) },
  { id: 'qwen-max-2025-01-25', ownedBy: q, kind: 'chat', created: releaseDate('2025-01-25'), contextWindow: 32_768, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.6, 6.4) },
  { id: 'qwen-plus', ownedBy: q, kind: 'chat', created: releaseDate('2025-04-28'), contextWindow: 131_072, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.4, 1.2) },
  { id: 'qwen-plus-2025-01-25', ownedBy: q, kind: 'chat', created: releaseDate('2025-01-25'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.4, 1.2) },
  { id: 'qwen-turbo', ownedBy: q, kind: 'chat', created: releaseDate('2025-04-28'), contextWindow: 1_000_000, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.05, 0.2) },
  { id: 'qwen-turbo-2024-11-01', ownedBy: q, kind: 'chat', created: releaseDate('2024-11-01'), contextWindow: 1_000_000, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.05, 0.2) },
  { id: 'qwen-vl-max', ownedBy: q, kind: 'chat', created: releaseDate('2025-01-25'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.8, 3.2) },
  { id: 'qwen-vl-plus', ownedBy: q, kind: 'chat', created: releaseDate('2025-01-25'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.21, 0.63) },
  { id: 'qwq-plus', ownedBy: q, kind: 'chat', created: releaseDate('2025-03-05'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.8, 2.4) },
  { id: 'qwen3-coder-plus', ownedBy: q, kind: 'chat', created: releaseDate('2025-07-22'), contextWindow: 1_000_000, maxOutputTokens: 65_536, inputModalities: [...textOnly], defaultPrices: tokenPrices(1, 5) },
  { id: 'qwen3-coder-flash', ownedBy: q, kind: 'chat', created: releaseDate('2025-07-31'), contextWindow: 1_000_000, maxOutputTokens: 65_536, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.3, 1.5) },
  { id: 'qwen3-235b-a22b-instruct-2507', ownedBy: q, kind: 'chat', created: releaseDate('2025-07-21'), contextWindow: 262_144, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.7, 2.8) },
  { id: 'qwen3-235b-a22b-thinking-2507', ownedBy: q, kind: 'chat', created: releaseDate('2025-07-25'), contextWindow: 262_144, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.7, 8.4) },
  { id: 'qwen3-coder-480b-a35b-instruct', ownedBy: q, kind: 'chat', created: releaseDate('2025-07-22'), contextWindow: 262_144, maxOutputTokens: 65_536, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.5, 7.5) },
  { id: 'qwen3-235b-a22b', ownedBy: q, kind: 'chat', created: releaseDate('2025-04-29'), contextWindow: 131_072, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.7, 2.8) },
  { id: 'qwen3-32b', ownedBy: q, kind: 'chat', created: releaseDate('2025-04-29'), contextWindow: 131_072, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.7, 2.8) },
  { id: 'qwen3-30b-a3b', ownedBy: q, kind: 'chat', created: releaseDate('2025-04-29'), contextWindow: 131_072, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.2, 0.8) },
  { id: 'qwen3-14b', ownedBy: q, kind: 'chat', created: releaseDate('2025-04-29'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.35, 1.4) },
  { id: 'qwen3-8b', ownedBy: q, kind: 'chat', created: releaseDate('2025-04-29'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.18, 0.7) },
  { id: 'qwen2.5-72b-instruct', ownedBy: q, kind: 'chat', created: releaseDate('2024-09-19'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.4, 5.6) },
  { id: 'qwen2.5-32b-instruct', ownedBy: q, kind: 'chat', created: releaseDate('2024-09-19'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.7, 2.8) },
  { id: 'qwen2.5-14b-instruct', ownedBy: q, kind: 'chat', created: releaseDate('2024-09-19'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.35, 1.4) },
  { id: 'qwen2.5-7b-instruct', ownedBy: q, kind: 'chat', created: releaseDate('2024-09-19'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.175, 0.7) },
  { id: 'qwen2.5-coder-32b-instruct', ownedBy: q, kind: 'chat', created: releaseDate('2024-11-12'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.7, 2.8) },
  { id: 'qwen2.5-vl-72b-instruct', ownedBy: q, kind: 'chat', created: releaseDate('2025-01-28'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2.8, 8.4) },
  { id: 'qwen2.5-vl-32b-instruct', ownedBy: q, kind: 'chat', created: releaseDate('2025-03-24'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.4, 4.2) },
  { id: 'text-embedding-v3', ownedBy: q, kind: 'embedding', created: releaseDate('2024-09-19'), contextWindow: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.07, 0) },
];
