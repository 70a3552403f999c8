import { describe, expect, it } from 'vitest';
import type { BreakerTransition } from './breaker-transition.js';
import { ChannelHealth } from './channel-health.js';
import { defaultChannelHealthSettings, type ChannelHealthSettings } from '../../config/channel-health-settings.js';
import type { ChannelOutcome } from './channel-outcome.js';

const start = Date.UTC(2026, 0, 1, 12, 0, 0);
const model = 'gpt-4o';
const alpha = { id: 'ch-alpha', name: 'alpha' };
const beta = { id: 'ch-beta', name: 'beta' };
const gamma = { id: 'ch-gamma', name: 'gamma' };
const failure: ChannelOutcome = { kind: 'vendor-error', status: 500 };
const success: ChannelOutcome = { kind: 'success' };

function createHealth(overrides: Partial<ChannelHealthSettings> = {}): {
  health: ChannelHealth;
  transitions: BreakerTransition[];
} {
  // The rate trigger is off unless a test turns it on, so consecutive-failure tests are not disturbed by it.
  const health = new ChannelHealth({ ...defaultChannelHealthSettings, errorRatePercent: 0, ...overrides });
  const transitions: BreakerTransition[] = [];
  health.onTransition((transition) => transitions.push(transition));
  return { health, transitions };
}

function fail(health: ChannelHealth, times: number, now: number, outcome: ChannelOutcome = failure): void {
  for (let index = 0; index < times; index++) health.record(alpha, model, outcome, now);
}

function summary(transitions: BreakerTransition[]): string[] {
  return transitions.map((transition) => `${transition.from}>${transition.to}:${transition.reason}`);
}

describe('ChannelHealth: closed to open', () => {
  it('opens after the configured number of consecutive failures, not before', () => {
    const { health, transitions } = createHealth({ consecutiveFailures: 3 });
    fail(health, 2, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(true);
    fail(health, 1, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(false);
    expect(transitions).toEqual([
      {
        channelId: alpha.id,
        channelName: 'alpha',
        model,
        from: 'closed',
        to: 'open',
        reason: 'consecutive-failures',
        at: start,
      },
    ]);
  });

  it('starts counting again after a success', () => {
    const { health } = createHealth({ consecutiveFailures: 3 });
    fail(health, 2, start);
    health.record(alpha, model, success, start);
    fail(health, 2, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(true);
  });

  it('counts timeouts, connection errors, 429 and refused credentials as failures', () => {
    const { health } = createHealth({ consecutiveFailures: 4 });
    for (const outcome of [
      { kind: 'timeout' },
      { kind: 'connection-error' },
      { kind: 'rate-limited' },
      { kind: 'credential-rejected', status: 401 },
    ] satisfies ChannelOutcome[]) {
      health.record(alpha, model, outcome, start);
    }
    expect(health.isAvailable(alpha.id, model, start)).toBe(false);
  });

  it('ignores a 4xx the client caused and a client that left: neither opens nor resets the count', () => {
    const { health } = createHealth({ consecutiveFailures: 3 });
    fail(health, 2, start);
    for (let index = 0; index < 10; index++) health.record(alpha, model, { kind: 'client-error', status: 400 }, start);
    health.record(alpha, model, { kind: 'cancelled' }, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(true);
    fail(health, 1, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(false);
  });

  it('keeps one breaker per channel and model', () => {
    const { health } = createHealth({ consecutiveFailures: 1 });
    fail(health, 1, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(false);
    expect(health.isAvailable(alpha.id, 'claude-sonnet-4', start)).toBe(true);
    expect(health.isAvailable(beta.id, model, start)).toBe(true);
  });
});

describe('ChannelHealth: error rate over a sliding window', () => {
  const rateSettings = {
    consecutiveFailures: 0,
    errorRatePercent: 50,
    errorRateWindowMs: 10_000,
    errorRateMinimumRequests: 10,
  };

  it('opens when failures reach the rate with enough volume in the window', () => {
    const { health, transitions } = createHealth(rateSettings);
    for (let index = 0; index < 5; index++) {
      health.record(alpha, model, success, start);
      health.record(alpha, model, failure, start);
    }
    expect(health.isAvailable(alpha.id, model, start)).toBe(false);
    expect(summary(transitions)).toEqual(['closed>open:error-rate']);
  });

  it('waits for the minimum volume', () => {
    const { health } = createHealth(rateSettings);
    for (let index = 0; index < 9; index++) health.record(alpha, model, failure, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(true);
    health.record(alpha, model, failure, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(false);
  });

  it('stays closed below the rate', () => {
    const { health } = createHealth(rateSettings);
    for (let index = 0; index < 30; index++) health.record(alpha, model, index % 3 === 0 ? failure : success, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(true);
  });

  it('forgets failures that slid out of the window', () => {
    const { health } = createHealth(rateSettings);
    for (let index = 0; index < 9; index++) health.record(alpha, model, failure, start);
    // Ten seconds later those nine are out of the window: one more failure is one of one, under the volume.
    health.record(alpha, model, failure, start + 10_000);
    expect(health.isAvailable(alpha.id, model, start + 10_000)).toBe(true);
    expect(health.snapshot(start + 10_000)[0]).toMatchObject({ windowRequests: 1, windowFailures: 1 });
  });
});

describe('ChannelHealth: open, half-open and probes', () => {
  it('turns half-open after the cool-down and lets the configured number of probes through', () => {
    const { health, transitions } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000, halfOpenProbes: 2 });
    fail(health, 1, start);
    expect(health.isAvailable(alpha.id, model, start + 9_999)).toBe(false);
    expect(health.admit(alpha.id, model, start + 9_999)).toBe(false);
    expect(health.isAvailable(alpha.id, model, start + 10_000)).toBe(true);
    expect(health.admit(alpha.id, model, start + 10_000)).toBe(true);
    expect(health.admit(alpha.id, model, start + 10_000)).toBe(true);
    expect(health.admit(alpha.id, model, start + 10_000)).toBe(false);
    expect(health.isAvailable(alpha.id, model, start + 10_000)).toBe(false);
    expect(summary(transitions)).toEqual(['closed>open:consecutive-failures', 'open>half-open:cool-down-over']);
  });

  it('closes on a probe success', () => {
    const { health, transitions } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000 });
    fail(health, 1, start);
    expect(health.admit(alpha.id, model, start + 10_000)).toBe(true);
    health.record(alpha, model, success, start + 10_500);
    expect(health.isAvailable(alpha.id, model, start + 10_500)).toBe(true);
    expect(health.admit(alpha.id, model, start + 10_500)).toBe(true);
    expect(health.admit(alpha.id, model, start + 10_500)).toBe(true);
    expect(summary(transitions)).toEqual([
      'closed>open:consecutive-failures',
      'open>half-open:cool-down-over',
      'half-open>closed:success',
    ]);
  });

  it('re-opens on a probe failure', () => {
    const { health, transitions } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000 });
    fail(health, 1, start);
    health.admit(alpha.id, model, start + 10_000);
    fail(health, 1, start + 11_000);
    expect(health.isAvailable(alpha.id, model, start + 11_000)).toBe(false);
    expect(summary(transitions).at(-1)).toBe('half-open>open:probe-failed');
  });

  it('gives the probe place back when a probe ends in a client error', () => {
    const { health } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000 });
    fail(health, 1, start);
    expect(health.admit(alpha.id, model, start + 10_000)).toBe(true);
    expect(health.admit(alpha.id, model, start + 10_000)).toBe(false);
    health.record(alpha, model, { kind: 'client-error', status: 400 }, start + 10_100);
    expect(health.snapshot(start + 10_100)[0]?.state).toBe('half-open');
    expect(health.admit(alpha.id, model, start + 10_100)).toBe(true);
  });

  it('frees a probe place whose outcome never came after the probe timeout', () => {
    const { health } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000, probeTimeoutMs: 60_000 });
    fail(health, 1, start);
    expect(health.admit(alpha.id, model, start + 10_000)).toBe(true);
    expect(health.admit(alpha.id, model, start + 69_999)).toBe(false);
    expect(health.admit(alpha.id, model, start + 70_000)).toBe(true);
  });

  it('closes on a success reported while open (an attempt made because every channel was open)', () => {
    const { health, transitions } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000 });
    fail(health, 1, start);
    health.record(alpha, model, success, start + 1_000);
    expect(health.isAvailable(alpha.id, model, start + 1_000)).toBe(true);
    expect(summary(transitions).at(-1)).toBe('open>closed:success');
  });

  it('keeps the cool-down when an attempt made while open fails', () => {
    const { health } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000 });
    fail(health, 1, start);
    fail(health, 1, start + 5_000);
    expect(health.isAvailable(alpha.id, model, start + 10_000)).toBe(true);
  });
});

describe('ChannelHealth: cool-down growth', () => {
  it('doubles the cool-down with each re-open and caps it', () => {
    const { health } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000, maxCoolDownMs: 35_000 });
    let now = start;
    const coolDowns: number[] = [];
    fail(health, 1, now);
    for (let round = 0; round < 4; round++) {
      const retryAt = health.snapshot(now)[0]!.retryAt!;
      coolDowns.push(retryAt - now);
      now = retryAt;
      expect(health.admit(alpha.id, model, now)).toBe(true);
      fail(health, 1, now);
    }
    expect(coolDowns).toEqual([10_000, 20_000, 35_000, 35_000]);
  });

  it('starts from the first cool-down again after the breaker closed', () => {
    const { health } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000 });
    fail(health, 1, start);
    health.admit(alpha.id, model, start + 10_000);
    fail(health, 1, start + 10_000);
    health.admit(alpha.id, model, start + 30_000);
    health.record(alpha, model, success, start + 30_000);
    fail(health, 1, start + 31_000);
    expect(health.snapshot(start + 31_000)[0]).toMatchObject({
      state: 'open',
      retryAt: start + 41_000,
      opensSinceClosed: 1,
    });
  });
});

describe('ChannelHealth: Retry-After', () => {
  it('opens at once on a 429 with delay-seconds, for that long when longer than the cool-down', () => {
    const { health, transitions } = createHealth({ coolDownMs: 10_000 });
    health.record(alpha, model, { kind: 'rate-limited', retryAfter: '120' }, start);
    expect(health.isAvailable(alpha.id, model, start + 119_999)).toBe(false);
    expect(health.isAvailable(alpha.id, model, start + 120_000)).toBe(true);
    expect(summary(transitions)).toEqual(['closed>open:retry-after']);
  });

  it('opens on a 503 with an HTTP date until that date', () => {
    const { health } = createHealth({ coolDownMs: 10_000 });
    health.record(
      alpha,
      model,
      { kind: 'vendor-error', status: 503, retryAfter: 'Thu, 01 Jan 2026 12:01:00 GMT' },
      start,
    );
    expect(health.snapshot(start)[0]).toMatchObject({ state: 'open', retryAt: start + 60_000 });
  });

  it('keeps at least the cool-down when the vendor asks for less', () => {
    const { health } = createHealth({ coolDownMs: 10_000 });
    health.record(alpha, model, { kind: 'rate-limited', retryAfter: '1' }, start);
    expect(health.snapshot(start)[0]?.retryAt).toBe(start + 10_000);
  });

  it('caps an absurd Retry-After', () => {
    const { health } = createHealth({ maxRetryAfterMs: 600_000 });
    health.record(alpha, model, { kind: 'rate-limited', retryAfter: '86400' }, start);
    expect(health.snapshot(start)[0]?.retryAt).toBe(start + 600_000);
  });

  it('extends an open breaker when a later answer asks for longer', () => {
    const { health } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000 });
    fail(health, 1, start);
    health.record(alpha, model, { kind: 'rate-limited', retryAfter: '300' }, start + 1_000);
    expect(health.snapshot(start + 1_000)[0]?.retryAt).toBe(start + 301_000);
  });

  it('re-opens a half-open breaker for the Retry-After', () => {
    const { health, transitions } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000 });
    fail(health, 1, start);
    health.admit(alpha.id, model, start + 10_000);
    health.record(alpha, model, { kind: 'vendor-error', status: 503, retryAfter: '600' }, start + 10_000);
    expect(health.snapshot(start + 10_000)[0]?.retryAt).toBe(start + 610_000);
    expect(summary(transitions).at(-1)).toBe('half-open>open:retry-after');
  });

  it('treats a 429 without a usable Retry-After as an ordinary failure', () => {
    const { health } = createHealth({ consecutiveFailures: 2 });
    health.record(alpha, model, { kind: 'rate-limited', retryAfter: 'later' }, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(true);
  });
});

describe('ChannelHealth: the choice step', () => {
  it('skips open channels and keeps the given order of the rest', () => {
    const { health } = createHealth({ consecutiveFailures: 1 });
    health.record(beta, model, failure, start);
    expect(health.filterHealthy([alpha, beta, gamma], model, start)).toEqual([alpha, gamma]);
  });

  it('returns the candidates themselves when every one is available', () => {
    const { health } = createHealth({ consecutiveFailures: 1 });
    const candidates = [alpha, beta];
    expect(health.filterHealthy(candidates, model, start)).toBe(candidates);
    health.record(gamma, model, failure, start);
    expect(health.filterHealthy(candidates, model, start)).toBe(candidates);
  });

  it('when every candidate is open, returns all of them, the soonest to be retried first', () => {
    const { health } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000 });
    health.record(alpha, model, { kind: 'rate-limited', retryAfter: '300' }, start);
    health.record(beta, model, failure, start + 2_000);
    health.record(gamma, model, failure, start);
    expect(health.filterHealthy([alpha, beta, gamma], model, start + 3_000)).toEqual([gamma, beta, alpha]);
  });

  it('orders a half-open channel whose probes are taken by when its probe place frees', () => {
    const { health } = createHealth({ consecutiveFailures: 1, coolDownMs: 10_000, probeTimeoutMs: 60_000 });
    health.record(alpha, model, failure, start);
    health.admit(alpha.id, model, start + 10_000);
    health.record(beta, model, { kind: 'rate-limited', retryAfter: '30' }, start + 10_000);
    expect(health.filterHealthy([alpha, beta], model, start + 10_000)).toEqual([beta, alpha]);
  });

  it('does nothing when disabled', () => {
    const { health } = createHealth({ enabled: false, consecutiveFailures: 1 });
    health.record(alpha, model, failure, start);
    expect(health.isAvailable(alpha.id, model, start)).toBe(true);
    expect(health.admit(alpha.id, model, start)).toBe(true);
    expect(health.size).toBe(0);
  });
});

describe('ChannelHealth: memory', () => {
  it('forgets idle closed breakers as later outcomes arrive', () => {
    const { health } = createHealth({ idleEntryMs: 60_000 });
    health.record(alpha, model, success, start);
    health.record(beta, model, success, start);
    expect(health.size).toBe(2);
    health.record(gamma, model, success, start + 60_000);
    expect(health.snapshot(start + 60_000).map((entry) => entry.channelName)).toEqual(['gamma']);
  });

  it('keeps an idle breaker that is still open', () => {
    const { health } = createHealth({
      idleEntryMs: 60_000,
      consecutiveFailures: 1,
      coolDownMs: 10_000,
      maxRetryAfterMs: 3_600_000,
    });
    health.record(alpha, model, { kind: 'rate-limited', retryAfter: '600' }, start);
    health.record(beta, model, success, start);
    health.record(gamma, model, success, start + 60_000);
    expect(health.snapshot(start + 60_000).map((entry) => entry.channelName)).toEqual(['alpha', 'gamma']);
    expect(health.isAvailable(alpha.id, model, start + 60_000)).toBe(false);
  });

  it('does constant work per outcome however many breakers are kept, yet every idle one goes eventually', () => {
    const { health } = createHealth({ idleEntryMs: 60_000 });
    for (let index = 0; index < 100; index++)
      health.record({ id: `old-${index}`, name: `old-${index}` }, model, success, start);
    health.record(alpha, model, success, start + 60_000);
    expect(health.size).toBe(99);
    for (let index = 0; index < 60; index++) health.record(alpha, model, success, start + 60_000);
    expect(health.size).toBe(1);
  });

  it('keeps at most maxEntries breakers, forgetting the least recently used', () => {
    const { health } = createHealth({ maxEntries: 2 });
    health.record(alpha, model, success, start);
    health.record(beta, model, success, start + 1);
    health.record(alpha, model, success, start + 2);
    health.record(gamma, model, success, start + 3);
    expect(health.snapshot(start + 3).map((entry) => entry.channelName)).toEqual(['alpha', 'gamma']);
  });

  it('drops the breakers of channels that are gone', () => {
    const { health } = createHealth({ consecutiveFailures: 1 });
    health.record(alpha, model, failure, start);
    health.record(alpha, 'claude-sonnet-4', failure, start);
    health.record(beta, model, failure, start);
    health.retainChannels(new Set([beta.id]));
    expect(health.snapshot(start).map((entry) => `${entry.channelName}/${entry.model}`)).toEqual(['beta/gpt-4o']);
    expect(health.isAvailable(alpha.id, model, start)).toBe(true);
  });
});

describe('ChannelHealth: snapshot', () => {
  it('shows state, counts, when to retry and the last failure per channel and model', () => {
    const { health } = createHealth({ consecutiveFailures: 3, coolDownMs: 10_000 });
    health.record(alpha, model, success, start);
    health.record(alpha, model, { kind: 'timeout' }, start + 1_000);
    health.record(beta, model, { kind: 'rate-limited', retryAfter: '60' }, start + 2_000);
    expect(health.snapshot(start + 2_000)).toEqual([
      {
        channelId: alpha.id,
        channelName: 'alpha',
        model,
        state: 'closed',
        consecutiveFailures: 1,
        windowRequests: 2,
        windowFailures: 1,
        retryAt: null,
        opensSinceClosed: 0,
        probesInFlight: 0,
        lastFailure: 'timeout',
        lastFailureAt: start + 1_000,
      },
      {
        channelId: beta.id,
        channelName: 'beta',
        model,
        state: 'open',
        consecutiveFailures: 0,
        windowRequests: 0,
        windowFailures: 0,
        retryAt: start + 62_000,
        opensSinceClosed: 1,
        probesInFlight: 0,
        lastFailure: 'rate-limited',
        lastFailureAt: start + 2_000,
      },
    ]);
    expect(health.snapshotChannel(beta.id, start + 62_000)).toEqual([
      expect.objectContaining({ state: 'half-open', retryAt: null }),
    ]);
  });
});
