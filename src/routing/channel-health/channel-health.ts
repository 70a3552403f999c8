import type { BreakerTransition } from './breaker-transition.js';
import { ChannelBreaker, type BreakerSnapshot, type TransitionListener } from './channel-breaker.js';
import type { ChannelHealthSettings } from '../../config/channel-health-settings.js';
import type { ChannelOutcome } from './channel-outcome.js';

/** The part of a channel health needs: its id (the breaker's key) and its name (for metrics and the API). */
export interface HealthChannel {
  id: string;
  name: string;
}

// Idle entries examined per recorded outcome: enough to keep up with insertions, constant work per call.
const sweepStepsPerRecord = 2;

/**
 * Circuit breakers per (channel, model) for the channel choice step. State changes only on calls, at the `now`
 * they pass (Unix milliseconds): no timers. Breakers are kept in least-recently-used order, so idle closed ones
 * are dropped a few at a time as outcomes arrive, and at most `maxEntries` are kept.
 *
 * All-open policy: `filterHealthy` never returns an empty list for non-empty candidates. When none is available,
 * it returns every candidate ordered by the time it may be tried again (soonest first, ties in the given order),
 * so a request goes to the channel closest to recovering instead of being refused.
 */
export class ChannelHealth {
  private readonly breakers = new Map<string, ChannelBreaker>();
  private readonly listeners: TransitionListener[] = [];

  constructor(private readonly settings: ChannelHealthSettings) {}

  /** Calls `listener` with every state change of every breaker (metrics, logs). */
  onTransition(listener: (transition: BreakerTransition) => void): void {
    this.listeners.push(listener);
  }

  /** Whether a request for `model` may go to the channel at `now` (open: no; half-open: while a probe place is free). */
  isAvailable(channelId: string, model: string, now: number): boolean {
    if (!this.settings.enabled) return true;
    return this.breakers.get(breakerKey(channelId, model))?.isAvailable(now) ?? true;
  }

  /**
   * The candidates that may serve `model` at `now`, in the given order; when none may, all of them ordered by
   * when each may be tried again (see the class comment). Returns `candidates` itself when every one is available.
   */
  filterHealthy<Channel extends HealthChannel>(
    candidates: readonly Channel[],
    model: string,
    now: number,
  ): readonly Channel[] {
    if (!this.settings.enabled || this.breakers.size === 0) return candidates;
    const available = candidates.filter((channel) => this.isAvailable(channel.id, model, now));
    if (available.length === candidates.length) return candidates;
    if (available.length > 0) return available;
    return candidates
      .map((channel, index) => ({
        channel,
        index,
        retryAt: this.breakers.get(breakerKey(channel.id, model))?.retryAt(now) ?? now,
      }))
      .sort((left, right) => left.retryAt - right.retryAt || left.index - right.index)
      .map((entry) => entry.channel);
  }

  /**
   * Takes a place for a request about to be sent to the channel: true when it may go. A half-open breaker counts it
   * as one of its probes; false means the probes are taken (or the breaker is open) and the caller should move on,
   * unless it is trying every channel because all were open.
   */
  admit(channelId: string, model: string, now: number): boolean {
    if (!this.settings.enabled) return true;
    return this.breakers.get(breakerKey(channelId, model))?.admit(now) ?? true;
  }

  /** Applies the outcome of an attempt on the channel for `model`; O(1). */
  record(channel: HealthChannel, model: string, outcome: ChannelOutcome, now: number): void {
    if (!this.settings.enabled) return;
    const key = breakerKey(channel.id, model);
    let breaker = this.breakers.get(key);
    if (breaker) {
      // Re-inserting keeps the map in least-recently-used order.
      this.breakers.delete(key);
      breaker.channelName = channel.name;
    } else {
      if (this.breakers.size >= this.settings.maxEntries) this.evictLeastRecentlyUsed();
      breaker = new ChannelBreaker(
        channel.id,
        channel.name,
        model,
        this.settings,
        (transition) => this.announce(transition),
        now,
      );
    }
    this.breakers.set(key, breaker);
    breaker.record(outcome, now);
    this.sweepIdle(now);
  }

  /** Forgets the breakers of channels not in `channelIds` (deleted or disabled ones); call when the routing table changes. */
  retainChannels(channelIds: ReadonlySet<string>): void {
    for (const [key, breaker] of this.breakers) {
      if (!channelIds.has(breaker.channelId)) this.breakers.delete(key);
    }
  }

  /** Every breaker at `now`, sorted by channel name, then model: what the channels API and `/metrics` show. */
  snapshot(now: number): BreakerSnapshot[] {
    return [...this.breakers.values()]
      .map((breaker) => breaker.snapshot(now))
      .sort(
        (left, right) =>
          left.channelName.localeCompare(right.channelName) ||
          left.channelId.localeCompare(right.channelId) ||
          left.model.localeCompare(right.model),
      );
  }

  /** The breakers of one channel at `now`, by model. */
  snapshotChannel(channelId: string, now: number): BreakerSnapshot[] {
    return this.snapshot(now).filter((entry) => entry.channelId === channelId);
  }

  /** How many breakers are kept (memory bound checks). */
  get size(): number {
    return this.breakers.size;
  }

  private announce(transition: BreakerTransition): void {
    for (const listener of this.listeners) listener(transition);
  }

  /** Drops idle closed breakers from the least recently used end; a few steps per call, so O(1). */
  private sweepIdle(now: number): void {
    for (let step = 0; step < sweepStepsPerRecord; step++) {
      const oldest = this.breakers.entries().next();
      if (oldest.done) return;
      const [key, breaker] = oldest.value;
      if (now - breaker.lastActivityAt < this.settings.idleEntryMs) return;
      this.breakers.delete(key);
      // An idle breaker that is not closed still guards its channel: it moves to the recent end instead of being dropped.
      if (breaker.stateAt(now) !== 'closed') this.breakers.set(key, breaker);
    }
  }

  private evictLeastRecentlyUsed(): void {
    const oldest = this.breakers.keys().next();
    if (!oldest.done) this.breakers.delete(oldest.value);
  }
}

function breakerKey(channelId: string, model: string): string {
  return `${channelId}\u0000${model}`;
}
