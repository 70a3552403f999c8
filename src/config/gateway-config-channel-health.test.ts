import { describe, expect, it } from 'vitest';
import { defaultChannelHealthSettings } from './channel-health-settings.js';
import { loadGatewayConfig } from './gateway-config.js';

describe('loadGatewayConfig: channel breakers', () => {
  it('has the documented defaults', () => {
    expect(loadGatewayConfig({}).channelHealth).toEqual(defaultChannelHealthSettings);
    expect(defaultChannelHealthSettings).toMatchObject({
      enabled: true,
      consecutiveFailures: 5,
      errorRatePercent: 50,
      errorRateWindowMs: 60_000,
      errorRateMinimumRequests: 20,
      coolDownMs: 10_000,
      maxCoolDownMs: 300_000,
      halfOpenProbes: 1,
      probeTimeoutMs: 60_000,
      maxRetryAfterMs: 3_600_000,
    });
  });

  it('reads each from the environment', () => {
    const config = loadGatewayConfig({
      GATEWAY_CHANNEL_BREAKER: 'off',
      GATEWAY_CHANNEL_BREAKER_CONSECUTIVE_FAILURES: '3',
      GATEWAY_CHANNEL_BREAKER_ERROR_RATE_PERCENT: '80',
      GATEWAY_CHANNEL_BREAKER_WINDOW_MS: '30000',
      GATEWAY_CHANNEL_BREAKER_MINIMUM_REQUESTS: '5',
      GATEWAY_CHANNEL_BREAKER_COOL_DOWN_MS: '2000',
      GATEWAY_CHANNEL_BREAKER_MAX_COOL_DOWN_MS: '8000',
      GATEWAY_CHANNEL_BREAKER_PROBES: '2',
      GATEWAY_CHANNEL_BREAKER_PROBE_TIMEOUT_MS: '15000',
      GATEWAY_CHANNEL_BREAKER_MAX_RETRY_AFTER_MS: '60000',
    });
    expect(config.channelHealth).toMatchObject({
      enabled: false,
      consecutiveFailures: 3,
      errorRatePercent: 80,
      errorRateWindowMs: 30_000,
      errorRateMinimumRequests: 5,
      coolDownMs: 2_000,
      maxCoolDownMs: 8_000,
      halfOpenProbes: 2,
      probeTimeoutMs: 15_000,
      maxRetryAfterMs: 60_000,
    });
  });

  it('stops on values that cannot work', () => {
    expect(() => loadGatewayConfig({ GATEWAY_CHANNEL_BREAKER_ERROR_RATE_PERCENT: '150' })).toThrow(
      /ERROR_RATE_PERCENT must be at most 100/,
    );
    expect(() => loadGatewayConfig({ GATEWAY_CHANNEL_BREAKER_PROBES: '0' })).toThrow(/PROBES must be at least 1/);
    expect(() => loadGatewayConfig({ GATEWAY_CHANNEL_BREAKER_WINDOW_MS: '0' })).toThrow(/WINDOW_MS must be at least 1/);
    expect(() =>
      loadGatewayConfig({
        GATEWAY_CHANNEL_BREAKER_COOL_DOWN_MS: '60000',
        GATEWAY_CHANNEL_BREAKER_MAX_COOL_DOWN_MS: '1000',
      }),
    ).toThrow(/MAX_COOL_DOWN_MS/);
    expect(() => loadGatewayConfig({ GATEWAY_CHANNEL_BREAKER: 'sometimes' })).toThrow(
      /GATEWAY_CHANNEL_BREAKER must be on or off/,
    );
  });
});
