import type { GatewayError } from '../core/gateway-error.js';
import type { RefusalReason } from '../observability/refusal-counts.js';

/**
 * The reason `gateway_refusals_total` counts a billing refusal under, from its error: a rate limit, a key used from an
 * address it may not be, a model without a price, a store the admission needed being down, else a balance, debt or
 * spending cap short of the hold.
 */
export function refusalReasonOf(error: GatewayError): RefusalReason {
  if (error.code === 'rate_limit_exceeded') return 'rate_limit';
  if (error.code === 'forbidden') return 'key_restricted';
  if (error.code === 'model_not_found') return 'model_unpriced';
  if (error.code === 'service_unavailable') return 'store_unavailable';
  return 'insufficient_quota';
}
