import type { CatalogModel, ModelPrices } from '../catalog-model.js';
import { textAndImage, textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { tokenPrices } from './token-prices.js';

const a = 'anthropic';

/** Anthropic's list prices per million tokens: cache writes cost 1.25x input (5-minute TTL), cache reads 0.1x. Nov 2025. */
function claudePrices(input: number, output: number): ModelPrices {
  return tokenPrices(input, output, { cachedInput: input / 10, cacheWrite: input * 1.25 });
}

const opusPrices = claudePrices(15, 75);
const sonnetPrices = claudePrices(3, 15);
const haikuThreePointFivePrices = claudePrices(0.8, 4);
const haikuFourPointFivePrices = claudePrices(1, 5);
const haikuThreePrices = tokenPrices(0.25, 1.25, { cachedInput: 0.03, cacheWrite: 0.3 });

/**
 * Claude on Anthropic's API (date-pinned ids, with Anthropic's own aliases) and on AWS Bedrock (`anthropic.*` ids).
 * Every Claude 3+ model has a 200K context and reads images.
 */
export const anthropicModels: CatalogModel[] = [
  { id: 'claude-haiku-4-5-20251001', aliases: ['claude-haiku-4-5'], ownedBy: a, kind: 'chat', created: releaseDate('2025-10-15'), contextWindow: 200_000, maxOutputTokens: 64_000, inputModalities: [...textAndImage], defaultPrices: haikuFourPointFivePrices },
  { id: 'claude-sonnet-4-5-20250929', aliases: ['claude-sonnet-4-5'], ownedBy: a, kind: 'chat', created: releaseDate('2025-09-29'), contextWindow: 200_000, maxOutputTokens: 64_000, inputModalities: [...textAndImage], defaultPrices: sonnetPrices },
  { id: 'claude-opus-4-1-20250805', aliases: ['claude-opus-4-1'], ownedBy: a, kind: 'chat', created: releaseDate('2025-08-05'), contextWindow: 200_000, maxOutputTokens: 32_000, inputModalities: [...textAndImage], defaultPrices: opusPrices },
  { id: 'claude-opus-4-20250514', aliases: ['claude-opus-4-0'], ownedBy: a, kind: 'chat', created: releaseDate('2025-05-22'), contextWindow: 200_000, maxOutputTokens: 32_000, inputModalities: [...textAndImage], defaultPrices: opusPrices },
  { id: 'claude-sonnet-4-20250514', aliases: ['claude-sonnet-4-0'], ownedBy: a, kind: 'chat', created: releaseDate('2025-05-22'), contextWindow: 200_000, maxOutputTokens: 64_000, inputModalities: [...textAndImage], defaultPrices: sonnetPrices },
  { id: 'claude-3-7-sonnet-20250219', aliases: ['claude-3-7-sonnet-latest'], ownedBy: a, kind: 'chat', created: releaseDate('2025-02-24'), contextWindow: 200_000, maxOutputTokens: 64_000, inputModalities: [...textAndImage], defaultPrices: sonnetPrices },
  { id: 'claude-3-5-sonnet-20241022', aliases: ['claude-3-5-sonnet-latest'], ownedBy: a, kind: 'chat', created: releaseDate('2024-10-22'), contextWindow: 200_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: sonnetPrices },
  { id: 'claude-3-5-sonnet-20240620', ownedBy: a, kind: 'chat', created: releaseDate('2024-06-20'), contextWindow: 200_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: sonnetPrices },
  { id: 'claude-3-5-haiku-20241022', aliases: ['claude-3-5-haiku-latest'], ownedBy: a, kind: 'chat', created: releaseDate('2024-11-04'), contextWindow: 200_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: haikuThreePointFivePrices },
  { id: 'claude-3-opus-20240229', aliases: ['claude-3-opus-latest'], ownedBy: a, kind: 'chat', created: releaseDate('2024-03-04'), contextWindow: 200_000, maxOutputTokens: 4_096, inputModalities: [...textAndImage], defaultPrices: opusPrices },
  { id: 'claude-3-sonnet-20240229', ownedBy: a, kind: 'chat', created: releaseDate('2024-03-04'), contextWindow: 200_000, maxOutputTokens: 4_096, inputModalities: [...textAndImage], defaultPrices: tokenPrices(3, 15) },
  { id: 'claude-3-haiku-20240307', ownedBy: a, kind: 'chat', created: releaseDate('2024-03-13'), contextWindow: 200_000, maxOutputTokens: 4_096, inputModalities: [...textAndImage], defaultPrices: haikuThreePrices },
  { id: 'claude-2.1', ownedBy: a, kind: 'chat', created: releaseDate('2023-11-21'), contextWindow: 200_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(8, 24) },
  { id: 'claude-2.0', ownedBy: a, kind: 'chat', created: releaseDate('2023-07-11'), contextWindow: 100_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(8, 24) },
  { id: 'claude-instant-1.2', ownedBy: a, kind: 'chat', created: releaseDate('2023-08-09'), contextWindow: 100_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.8, 2.4) },
  // The same models under their AWS Bedrock ids (Bedrock's on-demand prices equal Anthropic's)
  { id: 'anthropic.claude-haiku-4-5-20251001-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2025-10-15'), contextWindow: 200_000, maxOutputTokens: 64_000, inputModalities: [...textAndImage], defaultPrices: haikuFourPointFivePrices },
  { id: 'anthropic.claude-sonnet-4-5-20250929-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2025-09-29'), contextWindow: 200_000, maxOutputTokens: 64_000, inputModalities: [...textAndImage], defaultPrices: sonnetPrices },
  { id: 'anthropic.claude-opus-4-1-20250805-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2025-08-05'), contextWindow: 200_000, maxOutputTokens: 32_000, inputModalities: [...textAndImage], defaultPrices: opusPrices },
  { id: 'anthropic.claude-opus-4-20250514-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2025-05-22'), contextWindow: 200_000, maxOutputTokens: 32_000, inputModalities: [...textAndImage], defaultPrices: opusPrices },
  { id: 'anthropic.claude-sonnet-4-20250514-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2025-05-22'), contextWindow: 200_000, maxOutputTokens: 64_000, inputModalities: [...textAndImage], defaultPrices: sonnetPrices },
  { id: 'anthropic.claude-3-7-sonnet-20250219-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2025-02-24'), contextWindow: 200_000, maxOutputTokens: 64_000, inputModalities: [...textAndImage], defaultPrices: sonnetPrices },
  { id: 'anthropic.claude-3-5-sonnet-20241022-v2:0', ownedBy: a, kind: 'chat', created: releaseDate('2024-10-22'), contextWindow: 200_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: sonnetPrices },
  { id: 'anthropic.claude-3-5-sonnet-20240620-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2024-06-20'), contextWindow: 200_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: sonnetPrices },
  { id: 'anthropic.claude-3-5-haiku-20241022-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2024-11-04'), contextWindow: 200_000, maxOutputTokens: 8_192, inputModalities: [...textAndImage], defaultPrices: haikuThreePointFivePrices },
  { id: 'anthropic.claude-3-opus-20240229-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2024-04-16'), contextWindow: 200_000, maxOutputTokens: 4_096, inputModalities: [...textAndImage], defaultPrices: opusPrices },
  { id: 'anthropic.claude-3-sonnet-20240229-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2024-03-04'), contextWindow: 200_000, maxOutputTokens: 4_096, inputModalities: [...textAndImage], defaultPrices: tokenPrices(3, 15) },
  { id: 'anthropic.claude-3-haiku-20240307-v1:0', ownedBy: a, kind: 'chat', created: releaseDate('2024-03-13'), contextWindow: 200_000, maxOutputTokens: 4_096, inputModalities: [...textAndImage], defaultPrices: haikuThreePrices },
];
