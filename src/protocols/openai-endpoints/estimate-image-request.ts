import type { RequestEstimate } from '../../core/request-estimate.js';
import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';
import { readPositiveInteger } from '../shared/read-positive-integer.js';

/** The fields of an images request (the JSON body of a generation, the validated text fields of an edit) its estimate reads. */
export interface ImageEstimateFields {
  prompt?: unknown;
  n?: unknown;
  size?: unknown;
  quality?: unknown;
}

/**
 * The hold estimate of `POST /v1/images/generations` and `POST /v1/images/edits` (one rule for both): `n` images (1
 * without it) of the size and quality asked for, priced per image, and the prompt's tokens.
 */
export function estimateImageRequest(request: ImageEstimateFields): RequestEstimate {
  return {
    inputTokens: typeof request.prompt === 'string' ? estimateTextTokens(request.prompt) : 0,
    inlinePdfs: [],
    outputTokenCap: undefined,
    generations: 1,
    requestedImages: {
      image: { size: optionalString(request.size), quality: optionalString(request.quality) },
      count: readPositiveInteger(request.n) ?? 1,
    },
    transcriptionPromptTokens: 0,
  };
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
