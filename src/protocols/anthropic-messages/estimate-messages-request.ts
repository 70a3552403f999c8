import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import type { RequestEstimate } from '../../core/request-estimate.js';
import { estimateCanonicalRequest } from '../shared/estimate-canonical-request.js';

/**
 * The hold estimate of a Messages request, from its canonical request: its input (system, messages, tools), and
 * `max_tokens` as its output cap. Its prompt-cache TTL is the forwarding plan's (planAnthropicForwarding), which
 * decides which channels may write it.
 */
export function estimateMessagesRequest(request: CanonicalRequest): RequestEstimate {
  return estimateCanonicalRequest(request);
}
