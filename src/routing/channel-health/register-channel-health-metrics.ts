import { Counter, Gauge, type Registry } from 'prom-client';
import type { BreakerState } from './breaker-transition.js';
import type { ChannelHealth } from './channel-health.js';

const breakerStates: readonly BreakerState[] = ['closed', 'open', 'half-open'];

/** The number `gateway_channel_breaker_state_code` shows for each state. */
const breakerStateCodes: Readonly<Record<BreakerState, number>> = { closed: 0, open: 1, 'half-open': 2 };

/** The channel-health instruments served at `/metrics`. */
export interface ChannelHealthMetrics {
  /** 1 for the breaker's current state and 0 for the others, per channel and model (read from the breakers at each scrape) */
  breakerState: Gauge<'channel' | 'channel_id' | 'model' | 'state'>;
  /** the breaker's state as one number per channel name and model: 0 closed, 1 open, 2 half-open */
  breakerStateCode: Gauge<'channel' | 'model'>;
  /** breaker state changes per channel, model, from, to and reason */
  breakerTransitions: Counter<'channel' | 'channel_id' | 'model' | 'from' | 'to' | 'reason'>;
}

/**
 * Registers the breaker instruments on the app's registry: the state gauge is filled from `health.snapshot` at each
 * scrape (no work on the request path), the transition counter from `health.onTransition`. `clock` gives Unix milliseconds.
 */
export function registerChannelHealthMetrics(
  registry: Registry,
  health: ChannelHealth,
  clock: () => number,
): ChannelHealthMetrics {
  const breakerState = new Gauge({
    name: 'gateway_channel_breaker_state',
    help: 'Circuit breaker state per channel and model: 1 for the current state, 0 for the others',
    labelNames: ['channel', 'channel_id', 'model', 'state'],
    registers: [registry],
    collect() {
      // Rebuilt at each scrape, so forgotten breakers disappear from the output.
      this.reset();
      for (const entry of health.snapshot(clock())) {
        for (const state of breakerStates) {
          this.set(
            { channel: entry.channelName, channel_id: entry.channelId, model: entry.model, state },
            entry.state === state ? 1 : 0,
          );
        }
      }
    },
  });
  const breakerStateCode = new Gauge({
    name: 'gateway_channel_breaker_state_code',
    help: 'Circuit breaker state per channel and model: 0 closed, 1 open, 2 half-open',
    labelNames: ['channel', 'model'],
    registers: [registry],
    collect() {
      this.reset();
      for (const entry of health.snapshot(clock()))
        this.set({ channel: entry.channelName, model: entry.model }, breakerStateCodes[entry.state]);
    },
  });
  const breakerTransitions = new Counter({
    name: 'gateway_channel_breaker_transitions_total',
    help: 'Circuit breaker state changes per channel and model',
    labelNames: ['channel', 'channel_id', 'model', 'from', 'to', 'reason'],
    registers: [registry],
  });
  health.onTransition((transition) => {
    breakerTransitions.inc({
      channel: transition.channelName,
      channel_id: transition.channelId,
      model: transition.model,
      from: transition.from,
      to: transition.to,
      reason: transition.reason,
    });
  });
  return { breakerState, breakerStateCode, breakerTransitions };
}
