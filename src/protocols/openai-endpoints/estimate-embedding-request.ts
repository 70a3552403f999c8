import type { RequestEstimate } from '../../core/request-estimate.js';
import { countPromptTokens } from './count-prompt-tokens.js';

/** The hold estimate of an embeddings request (`POST /v1/embeddings`): the tokens of its `input`, nothing generated. */
export function estimateEmbeddingRequest(request: { input?: unknown }): RequestEstimate {
  return {
    inputTokens: countPromptTokens(request.input),
    inlinePdfs: [],
    outputTokenCap: undefined,
    generations: 1,
    requestedImages: undefined,
    transcriptionPromptTokens: 0,
  };
}
