/** How many prompt prefixes a gateway process remembers the channel of (least recently used forgotten first). */
export const defaultCacheAffinityCapacity = 10_000;

/**
 * Which channel last served each prompt prefix key, so a conversation that repeats its prefix goes back to the
 * channel whose vendor cache holds it. A bounded LRU map: O(1) per look-up and per update.
 */
export class CacheAffinityMap {
  private readonly channels = new Map<string, string>();

  constructor(private readonly capacity: number = defaultCacheAffinityCapacity) {}

  /** The channel that last served the key (refreshed as recently used), or undefined. */
  channelFor(key: string): string | undefined {
    const channelId = this.channels.get(key);
    if (channelId === undefined) return undefined;
    this.channels.delete(key);
    this.channels.set(key, channelId);
    return channelId;
  }

  /** Records the channel that served the key, forgetting the least recently used key past the capacity. */
  remember(key: string, channelId: string): void {
    this.channels.delete(key);
    this.channels.set(key, channelId);
    if (this.channels.size > this.capacity) {
      const oldest = this.channels.keys().next();
      if (!oldest.done) this.channels.delete(oldest.value);
    }
  }

  /** How many keys are remembered. */
  get size(): number {
    return this.channels.size;
  }
}
