import type { RoutableChannel } from './routing-table.js';

/**
 * The channels in the given try order, with the one that last served the request's prompt prefix moved first when it
 * is in the first channel's priority (it is already among the eligible, healthy channels it is chosen from), so
 * stickiness never overrides priority and only replaces the weighted draw within it; a channel of weight 0 (a
 * fallback only) is not preferred. Unchanged otherwise.
 */
export function preferCachedChannel(
  ordered: readonly RoutableChannel[],
  cachedChannelId: string | undefined,
): readonly RoutableChannel[] {
  if (cachedChannelId === undefined || ordered.length <= 1) return ordered;
  const first = ordered[0] as RoutableChannel;
  if (first.id === cachedChannelId) return ordered;
  const index = ordered.findIndex((channel) => channel.id === cachedChannelId);
  if (index === -1) return ordered;
  const cached = ordered[index] as RoutableChannel;
  if (cached.priority !== first.priority || cached.weight <= 0) return ordered;
  return [cached, ...ordered.slice(0, index), ...ordered.slice(index + 1)];
}
