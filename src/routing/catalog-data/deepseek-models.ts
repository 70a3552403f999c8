import type { CatalogModel } from '../catalog-model.js';
import { textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { tokenPrices } from './token-prices.js';

const d = 'deepseek';

/** DeepSeek's API (V3.2 prices since Sep 2025), its open weights under the names other vendors use, and on Bedrock. */
export const deepSeekModels: CatalogModel[] = [
  { id: 'deepseek-chat', ownedBy: d, kind: 'chat', created: releaseDate('2024-12-26'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.28, 0.42, { cachedInput: 0.028 }) },
  { id: 'deepseek-reasoner', ownedBy: d, kind: 'chat', created: releaseDate('2025-01-20'), contextWindow: 128_000, maxOutputTokens: 65_536, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.28, 0.42, { cachedInput: 0.028 }) },
  { id: 'deepseek-ai/DeepSeek-V3', ownedBy: d, kind: 'chat', created: releaseDate('2024-12-26'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.25, 1.25) },
  { id: 'deepseek-ai/DeepSeek-V3-0324', ownedBy: d, kind: 'chat', created: releaseDate('2025-03-24'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.25, 1.25) },
  { id: 'deepseek-ai/DeepSeek-V3.1', ownedBy: d, kind: 'chat', created: releaseDate('2025-08-21'), contextWindow: 131_072, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.6, 1.7) },
  { id: 'deepseek-ai/DeepSeek-R1', ownedBy: d, kind: 'chat', created: releaseDate('2025-01-20'), contextWindow: 131_072, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(3, 7) },
  { id: 'deepseek-ai/DeepSeek-R1-0528', ownedBy: d, kind: 'chat', created: releaseDate('2025-05-28'), contextWindow: 131_072, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(3, 7) },
  { id: 'deepseek-r1-distill-llama-70b', ownedBy: d, kind: 'chat', created: releaseDate('2025-01-20'), contextWindow: 131_072, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.75, 0.99) },
  { id: 'deepseek.r1-v1:0', ownedBy: d, kind: 'chat', created: releaseDate('2025-03-10'), contextWindow: 128_000, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.35, 5.4) },
  { id: 'deepseek.v3-v1:0', ownedBy: d, kind: 'chat', created: releaseDate('2025-09-18'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.58, 1.68) },
];
