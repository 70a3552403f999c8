import type { ChannelHealthService } from '../routing/channel-health/channel-health-service.js';
import type { ChannelOutcome } from '../routing/channel-health/channel-outcome.js';
import type { RoutableChannel } from '../routing/routing-table.js';

/**
 * The circuit breakers' part in one request's failover for one public model: which channels to try, whether
 * each may be sent to when its turn comes, and recording how each attempt ended.
 */
export class ChannelBreakerGate {
  /** true when no channel was available: every one is tried anyway, the soonest to recover first */
  private everyChannelOpen = false;

  constructor(
    private readonly health: ChannelHealthService,
    /** the public model id the breakers are kept for */
    private readonly model: string,
  ) {}

  /**
   * The channels to try, in the given order without those whose breaker is open; when every one is open, all of
   * them, soonest to be retried first, so the client gets the best chance instead of an instant 503.
   */
  choose(ordered: readonly RoutableChannel[]): readonly RoutableChannel[] {
    const now = this.health.clock();
    const chosen = this.health.breakers.filterHealthy(ordered, this.model, now);
    // filterHealthy keeps only available channels unless none is: then its first one is unavailable too.
    const first = chosen[0];
    this.everyChannelOpen = first !== undefined && !this.health.breakers.isAvailable(first.id, this.model, now);
    return chosen;
  }

  /**
   * Takes the channel's place for a request about to be sent (a half-open breaker counts it as a probe): false when
   * its probes were taken meanwhile and other channels were available, so the loop moves on without trying it.
   */
  admit(channel: RoutableChannel): boolean {
    const admitted = this.health.breakers.admit(channel.id, this.model, this.health.clock());
    return admitted || this.everyChannelOpen;
  }

  /** Records how an admitted attempt ended. */
  record(channel: RoutableChannel, outcome: ChannelOutcome): void {
    this.health.breakers.record(channel, this.model, outcome, this.health.clock());
  }
}
