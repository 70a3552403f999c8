import type { BreakerSnapshot } from '../../routing/channel-health/channel-breaker.js';
import type { ChannelHealthService } from '../../routing/channel-health/channel-health-service.js';

/** One model's circuit breaker on a channel, as the channels API shows it (this gateway process's view). */
export type ChannelModelHealth = Omit<BreakerSnapshot, 'channelId' | 'channelName'>;

/**
 * The breakers this process keeps for the channel, one per model it has served or failed, by model id. A model
 * without an entry has a closed breaker with nothing recorded (or nothing recent: idle closed breakers are forgotten).
 */
export function presentChannelHealth(channelHealth: ChannelHealthService, channelId: string): ChannelModelHealth[] {
  return channelHealth.breakers
    .snapshotChannel(channelId, channelHealth.clock())
    .map(({ channelId: _channelId, channelName: _channelName, ...health }) => health);
}
