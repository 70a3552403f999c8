import type { CatalogModel } from '../catalog-model.js';
import { textAndImage, textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { imagePrices, tokenPrices } from './token-prices.js';

const a = 'amazon';

/** Nova Canvas's common preset sizes (it renders any multiple of 16 from 320 to 4096 pixels a side; these are the ones offered here). */
const novaCanvasSizes = [
  '1024x1024',
  '2048x2048',
  '1280x720',
  '720x1280',
  '1152x896',
  '896x1152',
  '1536x1024',
  '1024x1536',
];

/** Amazon's own models on AWS Bedrock. Prices: Bedrock on-demand in us-east-1, Nov 2025. */
export const amazonModels: CatalogModel[] = [
  {
    id: 'amazon.nova-premier-v1:0',
    ownedBy: a,
    kind: 'chat',
    created: releaseDate('2025-04-30'),
    contextWindow: 1_000_000,
    maxOutputTokens: 32_000,
    inputModalities: [...textAndImage],
    defaultPrices: tokenPrices(2.5, 12.5, { cachedInput: 0.625 }),
  },
  {
    id: 'amazon.nova-pro-v1:0',
    ownedBy: a,
    kind: 'chat',
    created: releaseDate('2024-12-03'),
    contextWindow: 300_000,
    maxOutputTokens: 10_000,
    inputModalities: [...textAndImage],
    defaultPrices: tokenPrices(0.8, 3.2, { cachedInput: 0.2 }),
  },
  {
    id: 'amazon.nova-lite-v1:0',
    ownedBy: a,
    kind: 'chat',
    created: releaseDate('2024-12-03'),
    contextWindow: 300_000,
    maxOutputTokens: 10_000,
    inputModalities: [...textAndImage],
    defaultPrices: tokenPrices(0.06, 0.24, { cachedInput: 0.015 }),
  },
  {
    id: 'amazon.nova-micro-v1:0',
    ownedBy: a,
    kind: 'chat',
    created: releaseDate('2024-12-03'),
    contextWindow: 128_000,
    maxOutputTokens: 10_000,
    inputModalities: [...textOnly],
    defaultPrices: tokenPrices(0.035, 0.14, { cachedInput: 0.00875 }),
  },
  {
    id: 'amazon.titan-embed-text-v2:0',
    ownedBy: a,
    kind: 'embedding',
    created: releaseDate('2024-04-30'),
    contextWindow: 8_192,
    inputModalities: [...textOnly],
    defaultPrices: tokenPrices(0.02, 0),
  },
  {
    id: 'amazon.titan-embed-text-v1',
    ownedBy: a,
    kind: 'embedding',
    created: releaseDate('2023-09-28'),
    contextWindow: 8_192,
    inputModalities: [...textOnly],
    defaultPrices: tokenPrices(0.1, 0),
  },
  {
    id: 'amazon.nova-canvas-v1:0',
    ownedBy: a,
    kind: 'image',
    created: releaseDate('2024-12-03'),
    inputModalities: [...textAndImage],
    imageSizes: [...novaCanvasSizes],
    supportsImageEdits: true,
    maxImagesPerRequest: 5,
    defaultPrices: {
      ...tokenPrices(0, 0),
      perImage: imagePrices(
        Object.fromEntries(
          novaCanvasSizes.flatMap((size) => {
            const large = size === '2048x2048';
            return [
              [`${size}:standard`, large ? 0.06 : 0.04],
              [`${size}:premium`, large ? 0.1 : 0.08],
            ];
          }),
        ),
      ),
    },
  },
];
