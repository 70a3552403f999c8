import { GatewayError } from '../core/gateway-error.js';
import type { UpstreamAttemptResult } from '../providers/upstream-attempt-result.js';

/** An attempt that ends because the client left (or shutdown cut it); dispatchToChannels reports it as 499. */
export function clientClosedFailure(): UpstreamAttemptResult<never> {
  return { kind: 'final-failure', error: new GatewayError('server_error', 'The client closed the request.') };
}
