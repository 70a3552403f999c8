import type { ChannelOutcome } from '../routing/channel-health/channel-outcome.js';
import type { ChannelAttemptResult } from './channel-attempt-result.js';

/**
 * What one attempt's end says about the channel, for its breaker: an answer is a success; what the attempt saw
 * first-hand (an upstream status, a timeout, a broken connection) counts as it was seen; otherwise a client that
 * left says nothing (`cancelled`), a request refused as the client's fault is a `client-error`, and anything else
 * (nothing was sent, the channel cannot serve the endpoint) is `inconclusive`.
 */
export function channelOutcomeOfAttempt(result: ChannelAttemptResult<unknown>, clientLeft: boolean): ChannelOutcome {
  if (result.kind === 'success') return { kind: 'success' };
  if (result.channelOutcome) return result.channelOutcome;
  if (clientLeft) return { kind: 'cancelled' };
  if (result.kind === 'final-failure') return { kind: 'client-error', status: result.error.status };
  return { kind: 'inconclusive' };
}
