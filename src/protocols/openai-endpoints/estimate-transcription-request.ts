import type { RequestEstimate } from '../../core/request-estimate.js';
import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';

/**
 * The hold estimate of `POST /v1/audio/transcriptions` as far as its fields tell: the tokens of its `prompt`. The audio
 * itself is held by what was uploaded (MeteredRequest's uploaded bytes and decoded seconds), never by a field.
 */
export function estimateTranscriptionRequest(request: { prompt?: unknown }): RequestEstimate {
  return {
    inputTokens: 0,
    inlinePdfs: [],
    outputTokenCap: undefined,
    generations: 1,
    requestedImages: undefined,
    transcriptionPromptTokens: typeof request.prompt === 'string' ? estimateTextTokens(request.prompt) : 0,
  };
}
