import { GatewayError } from '../core/gateway-error.js';
import type { CatalogModel } from '../routing/catalog-model.js';

/** The options of an image request that depend on the model (generations and edits alike). */
export interface ImageModelOptions {
  prompt: string;
  n?: number | null;
  quality?: string | null;
  style?: string | null;
  background?: string | null;
  moderation?: string | null;
  output_format?: string | null;
  output_compression?: number | null;
  input_fidelity?: string | null;
  partial_images?: number | null;
}

/** What one family of OpenAI image models accepts, from the official API description. */
interface ImageModelFamily {
  /** most prompt characters */
  maxPromptLength: number;
  /** accepted `quality` values */
  qualities: ReadonlySet<string>;
  /** true when `style` applies (dall-e-3 only) */
  acceptsStyle: boolean;
  /** true for the GPT image models, the only ones with `background`, `moderation`, `output_format`, `output_compression`, `input_fidelity`, `partial_images` */
  isGptImage: boolean;
}

const gptImageOnlyOptions = [
  'background',
  'moderation',
  'output_format',
  'output_compression',
  'input_fidelity',
  'partial_images',
] as const;

const dallE2: ImageModelFamily = {
  maxPromptLength: 1000,
  qualities: new Set(['standard', 'auto']),
  acceptsStyle: false,
  isGptImage: false,
};
const dallE3: ImageModelFamily = {
  maxPromptLength: 4000,
  qualities: new Set(['standard', 'hd', 'auto']),
  acceptsStyle: true,
  isGptImage: false,
};
const gptImage: ImageModelFamily = {
  maxPromptLength: 32_000,
  qualities: new Set(['low', 'medium', 'high', 'auto']),
  acceptsStyle: false,
  isGptImage: true,
};

function familyOf(modelId: string): ImageModelFamily | undefined {
  if (modelId.startsWith('dall-e-2')) return dallE2;
  if (modelId.startsWith('dall-e-3')) return dallE3;
  if (modelId.startsWith('gpt-image') || modelId.startsWith('chatgpt-image')) return gptImage;
  return undefined;
}

/**
 * A 400 naming the option the model cannot take: `n` above the catalog's per-model limit (`dall-e-3`: 1), and for
 * OpenAI's own image models the description's per-model prompt lengths, qualities, `style` (dall-e-3 only) and the
 * GPT-image-only options. Other vendors' image models get the limits their catalog entry states.
 */
export function checkImageModelOptions(model: CatalogModel, options: ImageModelOptions): void {
  const count = options.n ?? 1;
  if (model.maxImagesPerRequest !== undefined && count > model.maxImagesPerRequest) {
    refuse(
      'n',
      `${model.id} generates at most ${model.maxImagesPerRequest} image${model.maxImagesPerRequest === 1 ? '' : 's'} per request.`,
    );
  }
  const family = familyOf(model.id);
  if (!family) return;
  if (options.prompt.length > family.maxPromptLength) {
    refuse('prompt', `${model.id} takes a prompt of at most ${family.maxPromptLength} characters.`);
  }
  if (options.quality && !family.qualities.has(options.quality)) {
    refuse(
      'quality',
      `${model.id} supports quality ${[...family.qualities].map((quality) => `'${quality}'`).join(', ')}.`,
    );
  }
  if (options.style && !family.acceptsStyle) refuse('style', `'style' is supported only by dall-e-3.`);
  if (family.isGptImage) return;
  for (const option of gptImageOnlyOptions) {
    if (options[option] !== undefined && options[option] !== null)
      refuse(option, `'${option}' is supported only by the GPT image models.`);
  }
}

function refuse(param: string, reason: string): never {
  throw new GatewayError('invalid_request_error', `Invalid value for '${param}': ${reason}`, { param });
}
