import type { CatalogModel } from '../catalog-model.js';
import { textAndImage, textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { tokenPrices } from './token-prices.js';

const m = 'meta';

/**
 * Llama open models under their Hugging Face names (served by Together, Fireworks, vLLM, ...), Groq's names, and
 * AWS Bedrock ids. Prices: Bedrock on-demand in us-east-1 for Bedrock ids, a typical host's list otherwise, Nov 2025.
 * Llama 4 Scout's window is Bedrock's 3.5M (the model supports 10M), beyond the spec's usual 2M ceiling.
 */
export const metaModels: CatalogModel[] = [
  { id: 'meta-llama/Llama-4-Maverick-17B-128E-Instruct', ownedBy: m, kind: 'chat', created: releaseDate('2025-04-05'), contextWindow: 1_048_576, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.27, 0.85) },
  { id: 'meta-llama/Llama-4-Scout-17B-16E-Instruct', ownedBy: m, kind: 'chat', created: releaseDate('2025-04-05'), contextWindow: 1_048_576, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.18, 0.59) },
  { id: 'meta-llama/Llama-3.3-70B-Instruct', ownedBy: m, kind: 'chat', created: releaseDate('2024-12-06'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.88, 0.88) },
  { id: 'meta-llama/Llama-3.2-90B-Vision-Instruct', ownedBy: m, kind: 'chat', created: releaseDate('2024-09-25'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.2, 1.2) },
  { id: 'meta-llama/Llama-3.2-11B-Vision-Instruct', ownedBy: m, kind: 'chat', created: releaseDate('2024-09-25'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.18, 0.18) },
  { id: 'meta-llama/Llama-3.2-3B-Instruct', ownedBy: m, kind: 'chat', created: releaseDate('2024-09-25'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.06, 0.06) },
  { id: 'meta-llama/Llama-3.2-1B-Instruct', ownedBy: m, kind: 'chat', created: releaseDate('2024-09-25'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.03, 0.03) },
  { id: 'meta-llama/Llama-3.1-405B-Instruct', ownedBy: m, kind: 'chat', created: releaseDate('2024-07-23'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(3.5, 3.5) },
  { id: 'meta-llama/Llama-3.1-70B-Instruct', ownedBy: m, kind: 'chat', created: releaseDate('2024-07-23'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.88, 0.88) },
  { id: 'meta-llama/Llama-3.1-8B-Instruct', ownedBy: m, kind: 'chat', created: releaseDate('2024-07-23'), contextWindow: 131_072, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.18, 0.18) },
  // Groq's names
  { id: 'llama-3.3-70b-versatile', ownedBy: m, kind: 'chat', created: 1733443200, contextWindow: 131_072, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.59, 0.79) },
  { id: 'llama-3.1-8b-instant', ownedBy: m, kind: 'chat', created: releaseDate('2024-07-23'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.05, 0.08) },
  // AWS Bedrock ids
  { id: 'meta.llama4-maverick-17b-instruct-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2025-04-29'), contextWindow: 1_000_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.24, 0.97) },
  { id: 'meta.llama4-scout-17b-instruct-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2025-04-29'), contextWindow: 3_500_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.17, 0.66) },
  { id: 'meta.llama3-3-70b-instruct-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2024-12-19'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.72, 0.72) },
  { id: 'meta.llama3-2-90b-instruct-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2024-09-25'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.72, 0.72) },
  { id: 'meta.llama3-2-11b-instruct-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2024-09-25'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.16, 0.16) },
  { id: 'meta.llama3-2-3b-instruct-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2024-09-25'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.15, 0.15) },
  { id: 'meta.llama3-2-1b-instruct-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2024-09-25'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0.1) },
  { id: 'meta.llama3-1-405b-instruct-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2024-07-23'), contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(2.4, 2.4) },
  { id: 'meta.llama3-1-70b-instruct-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2024-07-23'), contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.72, 0.72) },
  { id: 'meta.llama3-1-8b-instruct-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2024-07-23'), contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.22, 0.22) },
];
