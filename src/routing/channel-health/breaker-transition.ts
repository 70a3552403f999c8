/** A breaker's state: closed lets everything through, open nothing, half-open a few probes. */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** Why a breaker changed state. */
export type TransitionReason =
  /** `consecutiveFailures` failures in a row */
  | 'consecutive-failures'
  /** the window's failure share reached `errorRatePercent` with enough volume */
  | 'error-rate'
  /** the vendor sent `Retry-After` with a 429 or 5xx */
  | 'retry-after'
  /** the cool-down of an open breaker ran out */
  | 'cool-down-over'
  /** a success while half-open (a probe) or while open (an attempt made because every channel was open) */
  | 'success'
  /** a probe failed */
  | 'probe-failed';

/** One state change of the breaker of (channel, model). */
export interface BreakerTransition {
  channelId: string;
  /** the channel's name when the transition happened, for metrics and logs */
  channelName: string;
  /** the public model id */
  model: string;
  from: BreakerState;
  to: BreakerState;
  reason: TransitionReason;
  /** Unix milliseconds */
  at: number;
}
