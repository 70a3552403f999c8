import type { CatalogModel } from '../catalog-model.js';
import { textAndImage, textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { tokenPrices } from './token-prices.js';

const c = 'cohere';

/** Cohere's API and its models on AWS Bedrock. Prices: Cohere's list and Bedrock on-demand, Nov 2025. */
export const cohereModels: CatalogModel[] = [
  { id: 'command-a-03-2025', ownedBy: c, kind: 'chat', created: releaseDate('2025-03-13'), contextWindow: 256_000, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(2.5, 10) },
  { id: 'command-a-reasoning-08-2025', ownedBy: c, kind: 'chat', created: releaseDate('2025-08-21'), contextWindow: 256_000, maxOutputTokens: 32_000, inputModalities: [...textOnly], defaultPrices: tokenPrices(2.5, 10) },
  { id: 'command-a-vision-07-2025', ownedBy: c, kind: 'chat', created: releaseDate('2025-07-31'), contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2.5, 10) },
  { id: 'command-r-plus-08-2024', ownedBy: c, kind: 'chat', created: releaseDate('2024-08-30'), contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(2.5, 10) },
  { id: 'command-r-08-2024', ownedBy: c, kind: 'chat', created: releaseDate('2024-08-30'), contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.15, 0.6) },
  { id: 'command-r7b-12-2024', ownedBy: c, kind: 'chat', created: releaseDate('2024-12-13'), contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.0375, 0.15) },
  { id: 'command-r-plus', ownedBy: c, kind: 'chat', created: releaseDate('2024-04-04'), contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(2.5, 10) },
  { id: 'command-r', ownedBy: c, kind: 'chat', created: releaseDate('2024-03-11'), contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.15, 0.6) },
  { id: 'embed-v4.0', ownedBy: c, kind: 'embedding', created: releaseDate('2025-04-15'), contextWindow: 128_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.12, 0) },
  { id: 'embed-english-v3.0', ownedBy: c, kind: 'embedding', created: releaseDate('2023-11-02'), contextWindow: 512, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0) },
  { id: 'embed-multilingual-v3.0', ownedBy: c, kind: 'embedding', created: releaseDate('2023-11-02'), contextWindow: 512, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0) },
  { id: 'embed-english-light-v3.0', ownedBy: c, kind: 'embedding', created: releaseDate('2023-11-02'), contextWindow: 512, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0) },
  { id: 'embed-multilingual-light-v3.0', ownedBy: c, kind: 'embedding', created: releaseDate('2023-11-02'), contextWindow: 512, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0) },
  // On AWS Bedrock
  { id: 'cohere.command-r-plus-v1:0', ownedBy: c, kind: 'chat', created: releaseDate('2024-04-30'), contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(3, 15) },
  { id: 'cohere.command-r-v1:0', ownedBy: c, kind: 'chat', created: releaseDate('2024-04-30'), contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.5, 1.5) },
  { id: 'cohere.embed-english-v3', ownedBy: c, kind: 'embedding', created: releaseDate('2023-11-13'), contextWindow: 512, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0) },
  { id: 'cohere.embed-multilingual-v3', ownedBy: c, kind: 'embedding', created: releaseDate('2023-11-13'), contextWindow: 512, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0) },
];
