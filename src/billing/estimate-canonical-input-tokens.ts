import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import { collectCanonicalInputText } from './collect-canonical-input-text.js';
import type { DocumentPageCounts } from './estimate-media-part-tokens.js';
import { estimateTextTokens } from './estimate-text-tokens.js';

/**
 * Input tokens of a canonical request (Responses, Messages): its texts by UTF-8 length, its images and files by size,
 * with the same worst cases as chat bodies (see estimateMediaPartTokens), so a request holds the same whichever client
 * protocol carried it.
 */
export function estimateCanonicalInputTokens(request: CanonicalRequest, documentPages?: DocumentPageCounts): number {
  const input = collectCanonicalInputText(request, documentPages);
  return input.tokensBesideText + estimateTextTokens(input.text);
}
