import { GatewayError } from '../core/gateway-error.js';
import type { UpstreamAttemptResult } from '../providers/upstream-attempt-result.js';
import type { ChannelOutcome } from '../routing/channel-health/channel-outcome.js';
import { withChannelOutcome, type ChannelAttemptResult } from './channel-attempt-result.js';

/**
 * The failures of a vendor answer the gateway cannot relay (a redirect, a body that is not the endpoint's shape or
 * too large, a plain answer to a streamed request, a cut connection, silence): each lets another channel answer and,
 * when none can, reaches the client as a 502 `upstream_error` or 504 `upstream_timeout`. None of them is billed:
 * nothing the vendor proved it did reached the client.
 */

/** The status a breaker records for an answer the gateway could not use: a bad gateway. */
const unusableAnswerStatus = 502;

/** A vendor answer that cannot be relayed, charged to the channel as a vendor error with `status` (the vendor's, or 502). */
export function unusableUpstreamAnswer(
  message: string,
  status: number = unusableAnswerStatus,
): ChannelAttemptResult<never> {
  return withChannelOutcome(
    { kind: 'retryable-failure', error: new GatewayError('upstream_error', message) },
    { kind: 'vendor-error', status },
  );
}

/** The message for a 2xx body that is not the endpoint's answer. */
export const unreadableAnswerMessage = 'The upstream vendor sent an answer the gateway could not read.';

/** The message for a 3xx answer: vendor redirects are never followed (the key must not go to another origin) nor relayed. */
export function redirectMessage(status: number): string {
  return `The upstream vendor answered with a redirect (status ${status}); the gateway does not follow or relay vendor redirects.`;
}

/** The message for a 5xx answered with a page or nothing instead of the vendor's own JSON error. */
export function failurePageMessage(status: number): string {
  return `The upstream vendor failed with a page instead of an error (status ${status}); retry later.`;
}

/** The message for an answer beyond `GATEWAY_UPSTREAM_MAX_BODY_BYTES`. */
export function tooLargeMessage(maximumBytes: number): string {
  return `The upstream vendor's answer is larger than the gateway accepts (${maximumBytes} bytes).`;
}

/** The message for a streamed request answered with something other than an event stream. */
export const notAnEventStreamMessage = 'The upstream vendor answered a streamed request without an event stream.';

// undici's codes for a response head or body chunk that did not come in time.
const silenceCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
// Codes of a connection that could not be opened at all: the vendor is unreachable, not misbehaving.
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * A request that got no usable answer, as the client sees it when no other channel answers: silence past the
 * upstream timeouts is 504 `upstream_timeout`, a vendor that cannot be reached 503 `service_unavailable`, a
 * connection reset or cut mid-answer 502 `upstream_error`.
 */
export function transportFailure(error: unknown, channelOutcome: ChannelOutcome): ChannelAttemptResult<never> {
  const code = errorCodeOf(error);
  let result: UpstreamAttemptResult<never>;
  if (code !== undefined && silenceCodes.has(code)) {
    result = {
      kind: 'retryable-failure',
      error: new GatewayError('upstream_timeout', 'The upstream vendor did not answer in time; retry later.'),
    };
  } else if (code !== undefined && unreachableCodes.has(code)) {
    result = {
      kind: 'retryable-failure',
      error: new GatewayError('service_unavailable', 'The upstream vendor could not be reached; retry later.'),
    };
  } else {
    result = {
      kind: 'retryable-failure',
      error: new GatewayError(
        'upstream_error',
        'The connection to the upstream vendor broke before its answer was complete; retry later.',
      ),
    };
  }
  return withChannelOutcome(result, channelOutcome);
}

function errorCodeOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = 'code' in error ? error.code : undefined;
  if (typeof code === 'string') return code;
  // undici wraps some socket errors: the system error is the cause.
  return error.cause instanceof Error ? errorCodeOf(error.cause) : undefined;
}
