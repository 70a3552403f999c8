import type { RequestEstimate } from '../../core/request-estimate.js';
import { readPositiveInteger } from '../shared/read-positive-integer.js';
import { countPromptTokens } from './count-prompt-tokens.js';

/** The fields of a legacy completion request (`POST /v1/completions`) its hold estimate reads. */
export interface CompletionEstimateFields {
  prompt?: unknown;
  n?: unknown;
  best_of?: unknown;
  max_tokens?: unknown;
  /** not in the legacy API, but kept by its loose schema: a vendor that honours it caps the output with it */
  max_completion_tokens?: unknown;
}

/**
 * The hold estimate of a legacy completion: its prompt's tokens (see countPromptTokens), and `best_of` candidates (of
 * which `n` are returned, so `best_of` ≥ `n`) for each prompt of a batch (`prompt` as a list of strings or of token
 * lists), each of at most `max_tokens`.
 */
export function estimateCompletionRequest(request: CompletionEstimateFields): RequestEstimate {
  const choices = readPositiveInteger(request.n) ?? 1;
  const candidates = Math.max(choices, readPositiveInteger(request.best_of) ?? 1);
  const { prompt } = request;
  const isBatch =
    Array.isArray(prompt) && prompt.length > 0 && (typeof prompt[0] === 'string' || Array.isArray(prompt[0]));
  return {
    inputTokens: countPromptTokens(prompt),
    inlinePdfs: [],
    outputTokenCap: readPositiveInteger(request.max_completion_tokens) ?? readPositiveInteger(request.max_tokens),
    generations: candidates * (isBatch ? prompt.length : 1),
    requestedImages: undefined,
    transcriptionPromptTokens: 0,
  };
}
