import type { ChannelOutcome } from '../routing/channel-health/channel-outcome.js';

// undici's codes for a connection, response head or body chunk that did not come in time.
const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The channel outcome of a request that got no usable answer: undici's timeouts are `timeout`, anything else a broken connection. */
export function transportFailureOutcome(error: unknown): ChannelOutcome {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && timeoutCodes.has(code) ? { kind: 'timeout' } : { kind: 'connection-error' };
}
