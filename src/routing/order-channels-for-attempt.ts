import type { RoutableChannel } from './routing-table.js';

/**
 * The order in which to try channels: by priority (highest first), and within one priority a weighted
 * random order (Efraimidis–Spirakis), so weights share traffic and the rest remain as fallbacks.
 * Channels of weight 0 come last in their tier.
 */
export function orderChannelsForAttempt(
  channels: readonly RoutableChannel[],
  random: () => number = Math.random,
): RoutableChannel[] {
  if (channels.length <= 1) return channels.slice();
  const ranked = channels.map((channel) => ({
    channel,
    drawKey: channel.weight > 0 ? Math.pow(random(), 1 / channel.weight) : -1,
  }));
  ranked.sort((left, right) => right.channel.priority - left.channel.priority || right.drawKey - left.drawKey);
  return ranked.map((entry) => entry.channel);
}
