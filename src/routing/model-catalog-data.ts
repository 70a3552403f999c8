import type { CatalogModel } from './catalog-model.js';
import { amazonModels } from './catalog-data/amazon-models.js';
import { anthropicModels } from './catalog-data/anthropic-models.js';
import { cohereModels } from './catalog-data/cohere-models.js';
import { deepSeekModels } from './catalog-data/deepseek-models.js';
import { googleModels } from './catalog-data/google-models.js';
import { metaModels } from './catalog-data/meta-models.js';
import { mistralModels } from './catalog-data/mistral-models.js';
import { openAiModels } from './catalog-data/openai-models.js';
import { otherVendorModels } from './catalog-data/other-vendor-models.js';
import { qwenModels } from './catalog-data/qwen-models.js';
import { speechAndModerationModels } from './catalog-data/speech-and-moderation-models.js';
import { videoModels } from './catalog-data/video-models.js';
import { xAiModels } from './catalog-data/xai-models.js';

/**
 * Catalog version; bump when entries change so operators can tell which defaults they run.
 * The suffix is when the default list prices were taken from the vendors' public price pages (approximate).
 */
export const modelCatalogVersion = '2026-11-23.2+prices-2025-11';

/** Built-in models; `created` is the vendor's release date in Unix seconds, prices are in micro-units (see catalog-model.ts). */
export const modelCatalogData: CatalogModel[] = [
  ...openAiModels,
  ...anthropicModels,
  ...googleModels,
  ...deepSeekModels,
  ...xAiModels,
  ...mistralModels,
  ...metaModels,
  ...amazonModels,
  ...qwenModels,
  ...cohereModels,
  ...otherVendorModels,
  ...videoModels,
  ...speechAndModerationModels,
];
