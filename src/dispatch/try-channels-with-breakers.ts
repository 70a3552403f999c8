import type { ChannelHealthService } from '../routing/channel-health/channel-health-service.js';
import type { ChannelOutcome } from '../routing/channel-health/channel-outcome.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { ChannelAttemptResult } from './channel-attempt-result.js';
import { ChannelBreakerGate } from './channel-breaker-gate.js';
import { channelOutcomeOfAttempt } from './channel-outcome-of-attempt.js';
import type { DispatchObserver, ObservedAttemptValue, ObservedRequest } from './dispatch-observer.js';
import { channelSkipped, tryChannelsInOrder, type ChannelSuccess } from './try-channels-in-order.js';

/** What one gated failover runs: the model whose breakers gate it, its channels in the order to try, and one attempt. */
export interface GatedFailover<Value> {
  health: ChannelHealthService;
  /** the public model id the breakers are kept for */
  modelId: string;
  /** the channels to try, already ordered (priority and weights); those with an open breaker are left out */
  channels: readonly RoutableChannel[];
  /** one try against one channel; what it saw of the channel (`channelOutcome`) feeds the channel's breaker */
  attempt(channel: RoutableChannel): Promise<ChannelAttemptResult<Value>>;
  /** telemetry of every attempt (a CLIENT span and the `gen_ai.client.*` metrics) and of every skip; absent: none */
  observed?: { observer: DispatchObserver | undefined; request: ObservedRequest } | undefined;
}

/**
 * The failover order rule (tryChannelsInOrder) behind the breaker gate (ChannelBreakerGate), for the upstream calls
 * whose answer is the gateway's own business rather than a client stream: token counts, video submissions, the channel
 * test. Channels whose breaker is open are skipped (all tried, soonest to recover first, when every one is open); each
 * admitted attempt's end is recorded on the channel's breaker for the model, a thrown error as `inconclusive`.
 */
export async function tryChannelsWithBreakers<Value>(failover: GatedFailover<Value>): Promise<ChannelSuccess<Value>> {
  const gate = new ChannelBreakerGate(failover.health, failover.modelId);
  const observer = failover.observed?.observer;
  const observedRequest = failover.observed?.request;
  const healthy = gate.choose(failover.channels);
  if (observer && observedRequest && healthy.length < failover.channels.length)
    for (const channel of failover.channels)
      if (!healthy.includes(channel)) observer.channelSkipped(observedRequest, channel);
  let attemptNumber = 0;
  return tryChannelsInOrder(healthy, async (channel) => {
    if (!gate.admit(channel)) {
      if (observedRequest) observer?.channelSkipped(observedRequest, channel);
      return channelSkipped;
    }
    attemptNumber += 1;
    const startedAt = observer ? performance.now() : 0;
    const trace = observedRequest ? observer?.startAttempt(observedRequest, channel, attemptNumber) : undefined;
    // Thrown by the gateway's own code, not the vendor's answer: that says nothing about the channel.
    let outcome: ChannelOutcome = { kind: 'inconclusive' };
    let observedResult: ChannelAttemptResult<ObservedAttemptValue> | undefined;
    try {
      const result = await failover.attempt(channel);
      outcome = channelOutcomeOfAttempt(result, false);
      observedResult = result.kind === 'success' ? acceptedByVendor : result;
      return result;
    } finally {
      gate.record(channel, outcome);
      if (observedRequest) observer?.endAttempt(observedRequest, channel, startedAt, observedResult, trace);
    }
  });
}

/** What telemetry records of an accepted call: the vendor's 2xx; its own value is the caller's business. */
const acceptedByVendor: ChannelAttemptResult<ObservedAttemptValue> = {
  kind: 'success',
  value: { status: 200, errorCode: undefined },
};
