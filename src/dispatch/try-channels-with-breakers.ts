import type { ChannelHealthService } from '../routing/channel-health/channel-health-service.js';
import type { ChannelOutcome } from '../routing/channel-health/channel-outcome.js';
import type { RoutableChannel } from '../routing/routing-table.js';
import type { ChannelAttemptResult } from './channel-attempt-result.js';
import { ChannelBreakerGate } from './channel-breaker-gate.js';
import { channelOutcomeOfAttempt } from './channel-outcome-of-attempt.js';
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
}

/**
 * The failover order rule (tryChannelsInOrder) behind the breaker gate (ChannelBreakerGate), for the upstream calls
 * whose answer is the gateway's own business rather than a client stream: token counts, video submissions, the channel
 * test. Channels whose breaker is open are skipped (all tried, soonest to recover first, when every one is open); each
 * admitted attempt's end is recorded on the channel's breaker for the model, a thrown error as `inconclusive`.
 */
export async function tryChannelsWithBreakers<Value>(failover: GatedFailover<Value>): Promise<ChannelSuccess<Value>> {
  const gate = new ChannelBreakerGate(failover.health, failover.modelId);
  return tryChannelsInOrder(gate.choose(failover.channels), async (channel) => {
    if (!gate.admit(channel)) return channelSkipped;
    // Thrown by the gateway's own code, not the vendor's answer: that says nothing about the channel.
    let outcome: ChannelOutcome = { kind: 'inconclusive' };
    try {
      const result = await failover.attempt(channel);
      outcome = channelOutcomeOfAttempt(result, false);
      return result;
    } finally {
      gate.record(channel, outcome);
    }
  });
}
