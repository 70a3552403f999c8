import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ChannelHealth } from './channel-health.js';
import { defaultChannelHealthSettings } from '../../config/channel-health-settings.js';
import { registerChannelHealthMetrics } from './register-channel-health-metrics.js';

const start = Date.UTC(2026, 0, 1, 12, 0, 0);
const alpha = { id: 'ch-alpha', name: 'alpha' };

function setUp(): { registry: Registry; health: ChannelHealth; clock: { now: number } } {
  const registry = new Registry();
  const health = new ChannelHealth({ ...defaultChannelHealthSettings, consecutiveFailures: 1, coolDownMs: 10_000 });
  const clock = { now: start };
  registerChannelHealthMetrics(registry, health, () => clock.now);
  return { registry, health, clock };
}

describe('registerChannelHealthMetrics', () => {
  it('shows each breaker state per channel and model as of the scrape', async () => {
    const { registry, health, clock } = setUp();
    health.record(alpha, 'gpt-4o', { kind: 'vendor-error', status: 500 }, start);
    health.record(alpha, 'gpt-4o-mini', { kind: 'success' }, start);
    const text = await registry.metrics();
    expect(text).toContain(
      'gateway_channel_breaker_state{channel="alpha",channel_id="ch-alpha",model="gpt-4o",state="open"} 1',
    );
    expect(text).toContain(
      'gateway_channel_breaker_state{channel="alpha",channel_id="ch-alpha",model="gpt-4o",state="closed"} 0',
    );
    expect(text).toContain(
      'gateway_channel_breaker_state{channel="alpha",channel_id="ch-alpha",model="gpt-4o-mini",state="closed"} 1',
    );
    expect(text).toContain('gateway_channel_breaker_state_code{channel="alpha",model="gpt-4o"} 1');
    expect(text).toContain('gateway_channel_breaker_state_code{channel="alpha",model="gpt-4o-mini"} 0');
    clock.now = start + 10_000;
    const later = await registry.metrics();
    expect(later).toContain(
      'gateway_channel_breaker_state{channel="alpha",channel_id="ch-alpha",model="gpt-4o",state="half-open"} 1',
    );
    expect(later).toContain('gateway_channel_breaker_state_code{channel="alpha",model="gpt-4o"} 2');
  });

  it('drops forgotten breakers from the output', async () => {
    const { registry, health } = setUp();
    health.record(alpha, 'gpt-4o', { kind: 'success' }, start);
    health.retainChannels(new Set());
    const text = await registry.metrics();
    expect(text).not.toContain('gateway_channel_breaker_state{');
    expect(text).not.toContain('gateway_channel_breaker_state_code{');
  });

  it('counts transitions with their reason', async () => {
    const { registry, health } = setUp();
    health.record(alpha, 'gpt-4o', { kind: 'vendor-error', status: 500 }, start);
    health.admit(alpha.id, 'gpt-4o', start + 10_000);
    health.record(alpha, 'gpt-4o', { kind: 'success' }, start + 10_000);
    const text = await registry.metrics();
    expect(text).toContain(
      'gateway_channel_breaker_transitions_total{channel="alpha",channel_id="ch-alpha",model="gpt-4o",from="closed",to="open",reason="consecutive-failures"} 1',
    );
    expect(text).toContain(
      'gateway_channel_breaker_transitions_total{channel="alpha",channel_id="ch-alpha",model="gpt-4o",from="open",to="half-open",reason="cool-down-over"} 1',
    );
    expect(text).toContain(
      'gateway_channel_breaker_transitions_total{channel="alpha",channel_id="ch-alpha",model="gpt-4o",from="half-open",to="closed",reason="success"} 1',
    );
  });
});
