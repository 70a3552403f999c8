import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import type { RequestEstimate } from '../../core/request-estimate.js';
import { collectCanonicalInputText } from '../../core/token-estimates/collect-canonical-input-text.js';
import { estimateTextTokens } from '../../core/token-estimates/estimate-text-tokens.js';

/**
 * The hold estimate of a canonical request (Responses, Messages): its texts by UTF-8 length, its images and files by
 * size, with the same worst cases as chat bodies (see estimateMediaPartTokens), so a request holds the same whichever
 * client protocol carried it; one generation of at most its `maxOutputTokens`.
 */
export function estimateCanonicalRequest(request: CanonicalRequest): RequestEstimate {
  const input = collectCanonicalInputText(request);
  return {
    inputTokens: input.tokensBesideText + estimateTextTokens(input.text),
    inlinePdfs: input.inlinePdfs,
    outputTokenCap: request.maxOutputTokens ?? undefined,
    generations: 1,
    requestedImages: undefined,
    transcriptionPromptTokens: 0,
  };
}
