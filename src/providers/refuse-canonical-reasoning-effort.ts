import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import { GatewayError } from '../core/gateway-error.js';

/** A 400 for a reasoning effort the vendor adapter does not map yet (never silently dropped: it changes the answer). */
export function refuseCanonicalReasoningEffort(request: CanonicalRequest): void {
  if (request.reasoningEffort !== null) {
    throw new GatewayError('invalid_request_error', '`reasoning_effort` is not supported for this model.', {
      param: 'reasoning_effort',
    });
  }
}
