import type { GatewayError } from '../core/gateway-error.js';

/** How one try against one channel ended. */
export type UpstreamAttemptResult<Value> =
  | { kind: 'success'; value: Value }
  /** the same request may succeed on another channel (nothing was sent to the client yet) */
  | { kind: 'retryable-failure'; error: GatewayError }
  /** the client's request itself was refused, or bytes already reached the client: stop here */
  | { kind: 'final-failure'; error: GatewayError };
