// Anthropic token counting goes through the failover loop with the breaker gate: a channel whose breaker is open is
// not asked, a channel that fails hands over to the next, and each answer feeds the channel's breaker.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultChannelHealthSettings } from '../../src/config/channel-health-settings.js';
import { countAnthropicTokens } from '../../src/dispatch/count-anthropic-tokens.js';
import type { DispatchServices } from '../../src/dispatch/dispatch-services.js';
import { createGatewayMetrics } from '../../src/observability/gateway-metrics.js';
import {
  createChannelHealthService,
  type ChannelHealthService,
} from '../../src/routing/channel-health/channel-health-service.js';
import type { RoutableChannel } from '../../src/routing/routing-table.js';

const model = 'claude-public';
/** upstream model name -> the status its count answers with (200 answers `{input_tokens}` of that model) */
const statusOf = new Map<string, number>();
/** upstream model names in the order their counts were asked for */
let asked: string[] = [];
let server: Server;
let baseUrl: string;
const dispatcher = new Agent();
let health: ChannelHealthService;
let now = Date.UTC(2026, 0, 1);

function channel(id: string, priority: number): RoutableChannel {
  return {
    id,
    name: id,
    protocol: 'anthropic',
    baseUrl,
    secret: 'sk-ant-test',
    priority,
    weight: 1,
    ownedBy: 'test',
    modelMapping: new Map([[model, id]]),
    settings: {},
  };
}

function servicesFor(channels: RoutableChannel[]): DispatchServices {
  const refuse = async (): Promise<never> => {
    throw new Error('no image is fetched in this test');
  };
  return {
    config: { upstreamHeadersTimeoutMs: 5_000, upstreamBodyTimeoutMs: 5_000, streamWriteTimeoutMs: 0 },
    routing: { current: { channelsFor: () => channels } },
    dispatcher,
    remoteImageFetcher: { fetchImage: refuse, forRequest: () => refuse, close: async () => undefined },
    logger: pino({ level: 'silent' }),
    metrics: createGatewayMetrics(),
    clock: () => now,
    channelHealth: health,
  };
}

const request = {
  body: { model, max_tokens: 16, messages: [{ role: 'user', content: 'count me' }] },
  anthropicVersion: undefined,
  anthropicBeta: undefined,
  unsealArtefact: () => null,
};

beforeAll(async () => {
  server = createServer((incoming, answer) => {
    let text = '';
    incoming.on('data', (chunk: Buffer) => (text += chunk.toString()));
    incoming.on('end', () => {
      const upstreamModel = (JSON.parse(text) as { model: string }).model;
      asked.push(upstreamModel);
      const status = statusOf.get(upstreamModel) ?? 200;
      answer.writeHead(status, { 'content-type': 'application/json' });
      answer.end(
        status === 200
          ? JSON.stringify({ input_tokens: upstreamModel === 'primary' ? 11 : 22 })
          : JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'down' } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await dispatcher.close();
});

beforeEach(() => {
  now += 3_600_000;
  asked = [];
  statusOf.clear();
  health = createChannelHealthService(defaultChannelHealthSettings, () => now);
});

describe('countAnthropicTokens', () => {
  it('asks the first channel and records its success', async () => {
    const primary = channel('primary', 100);
    expect(await countAnthropicTokens(model, request, servicesFor([primary, channel('backup', 50)]))).toBe(11);
    expect(asked).toEqual(['primary']);
  });

  it('fails over when the first channel answers 5xx, and counts that failure on its breaker', async () => {
    statusOf.set('primary', 503);
    const primary = channel('primary', 100);
    const services = servicesFor([primary, channel('backup', 50)]);
    expect(await countAnthropicTokens(model, request, services)).toBe(22);
    expect(asked).toEqual(['primary', 'backup']);
    // Four more failures make five in a row: the default trigger opens the primary's breaker.
    for (let attempt = 0; attempt < defaultChannelHealthSettings.consecutiveFailures - 1; attempt++)
      await countAnthropicTokens(model, request, services);
    expect(health.breakers.isAvailable(primary.id, model, now)).toBe(false);
  });

  it('skips a channel whose breaker is open', async () => {
    const primary = channel('primary', 100);
    health.breakers.record(primary, model, { kind: 'rate-limited', retryAfter: '600' }, now);
    expect(health.breakers.isAvailable(primary.id, model, now)).toBe(false);
    expect(await countAnthropicTokens(model, request, servicesFor([primary, channel('backup', 50)]))).toBe(22);
    expect(asked).toEqual(['backup']);
  });

  it('gives no count (the caller estimates) when every channel fails', async () => {
    statusOf.set('primary', 500);
    statusOf.set('backup', 500);
    expect(
      await countAnthropicTokens(model, request, servicesFor([channel('primary', 100), channel('backup', 50)])),
    ).toBeUndefined();
    expect(asked).toEqual(['primary', 'backup']);
  });
});
