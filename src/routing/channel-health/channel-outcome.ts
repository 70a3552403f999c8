/**
 * What one upstream attempt on a channel told us about the channel's health; the caller (the failover loop) says
 * which it was. Failures: `vendor-error`, `rate-limited`, `timeout`, `connection-error`, `credential-rejected`.
 * Neutral (neither success nor failure): `client-error` and `cancelled`, because the client's own request or
 * departure caused them and another channel would fare no better, and `inconclusive`, which tells nothing either way.
 */
export type ChannelOutcome =
  /** the vendor answered (for streams: the response head and first event arrived) */
  | { kind: 'success' }
  /** the vendor answered 5xx or said it is overloaded (529, Anthropic `overloaded_error`); `retryAfter` is its raw `Retry-After` header */
  | { kind: 'vendor-error'; status: number; retryAfter?: string | undefined }
  /** the vendor answered 429; `retryAfter` is its raw `Retry-After` header (seconds or an HTTP date) */
  | { kind: 'rate-limited'; retryAfter?: string | undefined }
  /** no response head, or silence between body chunks, within the upstream timeouts */
  | { kind: 'timeout' }
  /** the connection could not be opened or broke (DNS, refused, reset, TLS) */
  | { kind: 'connection-error' }
  /** the vendor refused the channel's own credentials or permissions (401, 403): the channel is misconfigured */
  | { kind: 'credential-rejected'; status: number }
  /** a 4xx the client's request caused (400, 404, 413, 422, ...): NOT a channel failure */
  | { kind: 'client-error'; status: number }
  /** the client went away before the attempt had an outcome: says nothing about the channel */
  | { kind: 'cancelled' }
  /** the attempt ended without a word on the channel's health: nothing was sent (the channel cannot serve the endpoint, the request could not be encoded) or the relay broke after the answer began */
  | { kind: 'inconclusive' };

/** How an outcome counts for a breaker. */
export type OutcomeVerdict = 'success' | 'failure' | 'neutral';

/** Whether the outcome is a success, a channel failure, or says nothing about the channel. */
export function judgeChannelOutcome(outcome: ChannelOutcome): OutcomeVerdict {
  switch (outcome.kind) {
    case 'success':
      return 'success';
    case 'vendor-error':
    case 'rate-limited':
    case 'timeout':
    case 'connection-error':
    case 'credential-rejected':
      return 'failure';
    case 'client-error':
    case 'cancelled':
    case 'inconclusive':
      return 'neutral';
    default: {
      const unhandled: never = outcome;
      throw new Error(`Unhandled channel outcome: ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The vendor's raw `Retry-After` header carried by an outcome, if any (only 429 and 5xx/overloaded carry one). */
export function retryAfterOf(outcome: ChannelOutcome): string | undefined {
  return outcome.kind === 'vendor-error' || outcome.kind === 'rate-limited' ? outcome.retryAfter : undefined;
}
