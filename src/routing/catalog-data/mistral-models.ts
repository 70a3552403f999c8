import type { CatalogModel } from '../catalog-model.js';
import { textAndImage, textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { tokenPrices } from './token-prices.js';

const m = 'mistral';

/** Mistral's API (dated ids; Mistral's `-latest` names are aliases of the current one) and on Bedrock. Prices: Mistral's list, Nov 2025. */
export const mistralModels: CatalogModel[] = [
  { id: 'mistral-large-2411', aliases: ['mistral-large-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2024-11-18'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textOnly], defaultPrices: tokenPrices(2, 6) },
  { id: 'mistral-large-2407', ownedBy: m, kind: 'chat', created: releaseDate('2024-07-24'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textOnly], defaultPrices: tokenPrices(2, 6) },
  { id: 'mistral-medium-2508', aliases: ['mistral-medium-latest', 'mistral-medium'], ownedBy: m, kind: 'chat', created: releaseDate('2025-08-12'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.4, 2) },
  { id: 'mistral-medium-2505', ownedBy: m, kind: 'chat', created: releaseDate('2025-05-07'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.4, 2) },
  { id: 'mistral-small-2506', aliases: ['mistral-small-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2025-06-20'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.1, 0.3) },
  { id: 'mistral-small-2503', ownedBy: m, kind: 'chat', created: releaseDate('2025-03-17'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.1, 0.3) },
  { id: 'magistral-medium-2509', aliases: ['magistral-medium-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2025-09-17'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2, 5) },
  { id: 'magistral-small-2509', aliases: ['magistral-small-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2025-09-17'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.5, 1.5) },
  { id: 'codestral-2508', aliases: ['codestral-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2025-07-30'), contextWindow: 256_000, maxOutputTokens: 256_000, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.3, 0.9) },
  { id: 'codestral-2501', ownedBy: m, kind: 'chat', created: releaseDate('2025-01-13'), contextWindow: 256_000, maxOutputTokens: 256_000, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.3, 0.9) },
  { id: 'devstral-medium-2507', aliases: ['devstral-medium-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2025-07-10'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.4, 2) },
  { id: 'devstral-small-2507', aliases: ['devstral-small-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2025-07-10'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0.3) },
  { id: 'pixtral-large-2411', aliases: ['pixtral-large-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2024-11-18'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2, 6) },
  { id: 'pixtral-12b-2409', aliases: ['pixtral-12b', 'pixtral-12b-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2024-09-17'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.15, 0.15) },
  { id: 'ministral-8b-2410', aliases: ['ministral-8b-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2024-10-16'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0.1) },
  { id: 'ministral-3b-2410', aliases: ['ministral-3b-latest'], ownedBy: m, kind: 'chat', created: releaseDate('2024-10-16'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.04, 0.04) },
  { id: 'open-mistral-nemo-2407', aliases: ['open-mistral-nemo'], ownedBy: m, kind: 'chat', created: releaseDate('2024-07-18'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.15, 0.15) },
  { id: 'open-mixtral-8x22b', ownedBy: m, kind: 'chat', created: releaseDate('2024-04-17'), contextWindow: 65_536, maxOutputTokens: 65_536, inputModalities: [...textOnly], defaultPrices: tokenPrices(2, 6) },
  { id: 'mistral-embed', ownedBy: m, kind: 'embedding', created: 1702425600, contextWindow: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0) },
  { id: 'codestral-embed-2505', aliases: ['codestral-embed'], ownedBy: m, kind: 'embedding', created: releaseDate('2025-05-28'), contextWindow: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.15, 0) },
  // On AWS Bedrock
  { id: 'mistral.mistral-large-2407-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2024-07-24'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(2, 6) },
  { id: 'mistral.pixtral-large-2502-v1:0', ownedBy: m, kind: 'chat', created: releaseDate('2025-04-08'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2, 6) },
];
