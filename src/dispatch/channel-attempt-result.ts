import type { UpstreamAttemptResult } from '../providers/upstream-attempt-result.js';
import type { ChannelOutcome } from '../routing/channel-health/channel-outcome.js';

/**
 * How one try against one channel ended, plus, where the attempt saw it first-hand (an upstream status and its
 * Retry-After, a timeout, a broken connection), what that says about the channel's health. Without
 * `channelOutcome` the failover loop derives it (see channelOutcomeOf).
 */
export type ChannelAttemptResult<Value> = UpstreamAttemptResult<Value> & {
  /** the channel's side of the failure, for its circuit breaker */
  channelOutcome?: ChannelOutcome;
};

/** `result` with the channel outcome the attempt observed attached. */
export function withChannelOutcome<Value>(
  result: UpstreamAttemptResult<Value>,
  channelOutcome: ChannelOutcome,
): ChannelAttemptResult<Value> {
  return { ...result, channelOutcome };
}
