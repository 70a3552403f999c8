import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import type { RequestEstimate } from '../../core/request-estimate.js';
import { estimateCanonicalRequest } from '../shared/estimate-canonical-request.js';

/**
 * The hold estimate of a Responses request, from its canonical request (the previous response's messages included
 * when it continues one): its input, and `max_output_tokens` as its output cap.
 */
export function estimateResponsesRequest(request: CanonicalRequest): RequestEstimate {
  return estimateCanonicalRequest(request);
}
