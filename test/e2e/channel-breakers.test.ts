// Channel circuit breakers end to end: two OpenAI simulators behind two channels of one model, a breaker clock the
// test moves by hand, and the requests each simulator received as the proof of where the gateway sent them.
import OpenAI from 'openai';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/accounts/password-hash.js';
import { defaultChannelHealthSettings } from '../../src/config/channel-health-settings.js';
import type { ChannelRecord } from '../../src/storage/store-records.js';
import { createOpenAiClient, startTestGateway, uniqueName, type TestGateway } from '../helpers/start-test-gateway.js';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';

const channelSecret = 'sk-upstream-breaker-channel-secret';
const adminPassword = 'correct horse battery staple';
const consecutiveFailures = 3;
const coolDownMs = 10_000;
const question: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'are you there' }];

/** The breakers' clock (Unix milliseconds): only the test moves it. */
let now = Date.UTC(2026, 0, 1, 12, 0, 0);
let primary: OpenAiSimulator;
let backup: OpenAiSimulator;
let gateway: TestGateway;
let client: OpenAI;
let adminToken: string;

/** Two channels for `model`: `primary` (tried first) on the first simulator, `backup` on the second, each asked for its upstream model. */
async function routeThroughTwoChannels(
  model: string,
  primaryUpstream: string,
  backupUpstream: string,
): Promise<{ primaryChannel: ChannelRecord; backupChannel: ChannelRecord }> {
  const primaryChannel = await gateway.createChannel({
    name: uniqueName(`${model}-primary`),
    baseUrl: primary.url,
    secret: channelSecret,
    models: [model],
    modelMapping: { [model]: primaryUpstream },
    priority: 100,
    refreshRouting: false,
  });
  const backupChannel = await gateway.createChannel({
    name: uniqueName(`${model}-backup`),
    baseUrl: backup.url,
    secret: channelSecret,
    models: [model],
    modelMapping: { [model]: backupUpstream },
    priority: 50,
  });
  return { primaryChannel, backupChannel };
}

/** Points the channel's `model` at another upstream model, as an operator fixing it would. */
async function remapChannel(channel: ChannelRecord, model: string, upstreamModel: string): Promise<void> {
  await gateway.store.updateChannel(channel.id, { modelMapping: { [model]: upstreamModel } });
  await gateway.refreshRouting();
}

/** How many chat requests the simulator received for `upstreamModel`. */
function requestsFor(simulator: OpenAiSimulator, upstreamModel: string): number {
  return simulator.requests.filter(
    (recorded) => (recorded.body as { model?: unknown } | undefined)?.model === upstreamModel,
  ).length;
}

async function ask(model: string): Promise<OpenAI.Chat.ChatCompletion> {
  return client.chat.completions.create({ model, messages: question });
}

/** The channel as `GET /api/channels/:id` shows it to an administrator. */
async function readChannel(channel: ChannelRecord): Promise<{ health: Array<Record<string, unknown>> }> {
  const response = await request(`${gateway.url}/api/channels/${channel.id}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(response.statusCode).toBe(200);
  return (await response.body.json()) as { health: Array<Record<string, unknown>> };
}

async function readMetrics(): Promise<string> {
  const response = await request(`${gateway.url}/metrics`);
  return response.body.text();
}

beforeAll(async () => {
  primary = await startOpenAiSimulator({ apiKey: channelSecret });
  backup = await startOpenAiSimulator({ apiKey: channelSecret });
  gateway = await startTestGateway({
    // The error-rate trigger is off so only the consecutive-failure and Retry-After triggers are at work.
    config: {
      channelHealth: { ...defaultChannelHealthSettings, consecutiveFailures, errorRatePercent: 0, coolDownMs },
    },
    channelHealthClock: () => now,
  });
  client = createOpenAiClient(gateway, (await gateway.createKey()).secret);
  const admin = await gateway.store.createUser({
    email: `${uniqueName('admin')}@example.test`,
    displayName: 'Breaker admin',
    role: 'admin',
    passwordHash: await hashPassword(adminPassword),
  });
  const login = await request(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.email, password: adminPassword }),
  });
  adminToken = ((await login.body.json()) as { token: string }).token;
});

afterAll(async () => {
  await gateway?.close();
  await primary?.close();
  await backup?.close();
});

beforeEach(() => {
  now += 3_600_000;
});

describe('channel circuit breakers', () => {
  it('opens after consecutive 500s, then sends requests straight to the next channel; after the cool-down a successful probe closes it', async () => {
    const model = 'breaker-500';
    const { primaryChannel } = await routeThroughTwoChannels(model, 'sim-error-500', 'healthy-backup-500');
    for (let request = 0; request < consecutiveFailures; request++) {
      expect((await ask(model)).choices[0]?.message.role).toBe('assistant');
    }
    expect(requestsFor(primary, 'sim-error-500')).toBe(consecutiveFailures);
    expect(requestsFor(backup, 'healthy-backup-500')).toBe(consecutiveFailures);

    await ask(model);
    await ask(model);
    // The open breaker kept both requests away from the failing channel.
    expect(requestsFor(primary, 'sim-error-500')).toBe(consecutiveFailures);
    expect(requestsFor(backup, 'healthy-backup-500')).toBe(consecutiveFailures + 2);
    expect((await readChannel(primaryChannel)).health).toEqual([
      expect.objectContaining({
        model,
        state: 'open',
        retryAt: now + coolDownMs,
        lastFailure: 'vendor-error',
        opensSinceClosed: 1,
      }),
    ]);

    // The vendor recovers; the breaker still waits out its cool-down.
    await remapChannel(primaryChannel, model, 'healthy-primary-500');
    now += coolDownMs - 1;
    await ask(model);
    expect(requestsFor(primary, 'healthy-primary-500')).toBe(0);
    now += 1;
    await ask(model);
    expect(requestsFor(primary, 'healthy-primary-500')).toBe(1);
    expect((await readChannel(primaryChannel)).health).toEqual([
      expect.objectContaining({ model, state: 'closed', retryAt: null, consecutiveFailures: 0 }),
    ]);
    await ask(model);
    expect(requestsFor(primary, 'healthy-primary-500')).toBe(2);
    expect(requestsFor(backup, 'healthy-backup-500')).toBe(consecutiveFailures + 3);

    const metrics = await readMetrics();
    const labels = `channel="${primaryChannel.name}",channel_id="${primaryChannel.id}",model="${model}"`;
    expect(metrics).toContain(`gateway_channel_breaker_state{${labels},state="closed"} 1`);
    expect(metrics).toContain(`gateway_channel_breaker_state{${labels},state="open"} 0`);
    expect(metrics).toContain(
      `gateway_channel_breaker_transitions_total{${labels},from="closed",to="open",reason="consecutive-failures"} 1`,
    );
    expect(metrics).toContain(
      `gateway_channel_breaker_transitions_total{${labels},from="open",to="half-open",reason="cool-down-over"} 1`,
    );
    expect(metrics).toContain(
      `gateway_channel_breaker_transitions_total{${labels},from="half-open",to="closed",reason="success"} 1`,
    );
  });

  it('keeps a channel that answered 429 with Retry-After: 30 out of rotation for 30 seconds', async () => {
    const model = 'breaker-429';
    const { primaryChannel } = await routeThroughTwoChannels(
      model,
      'sim-error-429-retry-after-30',
      'healthy-backup-429',
    );
    const openedAt = now;
    await ask(model);
    expect(requestsFor(primary, 'sim-error-429-retry-after-30')).toBe(1);
    expect((await readChannel(primaryChannel)).health).toEqual([
      expect.objectContaining({ model, state: 'open', retryAt: openedAt + 30_000, lastFailure: 'rate-limited' }),
    ]);
    expect(await readMetrics()).toContain(
      `gateway_channel_breaker_state{channel="${primaryChannel.name}",channel_id="${primaryChannel.id}",model="${model}",state="open"} 1`,
    );

    now = openedAt + 29_999;
    await ask(model);
    expect(requestsFor(primary, 'sim-error-429-retry-after-30')).toBe(1);
    now = openedAt + 30_000;
    await ask(model);
    expect(requestsFor(primary, 'sim-error-429-retry-after-30')).toBe(2);
    expect(requestsFor(backup, 'healthy-backup-429')).toBe(3);
  });

  it("never opens a breaker for the client's own 400s", async () => {
    const model = 'breaker-400';
    const { primaryChannel } = await routeThroughTwoChannels(model, 'sim-error-400', 'healthy-backup-400');
    for (let request = 0; request < consecutiveFailures * 2; request++) {
      await expect(ask(model)).rejects.toMatchObject({ status: 400 });
    }
    // Every request reached the vendor the client's request was for: none was kept away, none failed over.
    expect(requestsFor(primary, 'sim-error-400')).toBe(consecutiveFailures * 2);
    expect(requestsFor(backup, 'healthy-backup-400')).toBe(0);
    expect((await readChannel(primaryChannel)).health).toEqual([
      expect.objectContaining({ model, state: 'closed', consecutiveFailures: 0, windowFailures: 0, lastFailure: null }),
    ]);
  });

  it('with every channel open, still sends the request to the one retrying soonest instead of answering 503 at once', async () => {
    const model = 'breaker-all-open';
    const { primaryChannel, backupChannel } = await routeThroughTwoChannels(
      model,
      'sim-error-429-retry-after-60',
      'sim-error-429-retry-after-30',
    );
    await expect(ask(model)).rejects.toMatchObject({ status: 429 });
    expect((await readChannel(primaryChannel)).health).toEqual([expect.objectContaining({ state: 'open' })]);
    expect((await readChannel(backupChannel)).health).toEqual([expect.objectContaining({ state: 'open' })]);

    // Both vendors recover while both breakers are still open: the backup (open for 30 s, not 60) is tried first.
    await remapChannel(primaryChannel, model, 'healthy-primary-all-open');
    await remapChannel(backupChannel, model, 'healthy-backup-all-open');
    now += 1_000;
    expect((await ask(model)).choices[0]?.message.role).toBe('assistant');
    expect(requestsFor(backup, 'healthy-backup-all-open')).toBe(1);
    expect(requestsFor(primary, 'healthy-primary-all-open')).toBe(0);
    expect((await readChannel(backupChannel)).health).toEqual([expect.objectContaining({ state: 'closed' })]);
  });

  it('forgets the breakers of a deleted channel', async () => {
    const model = 'breaker-deleted';
    const { primaryChannel } = await routeThroughTwoChannels(
      model,
      'sim-error-429-retry-after-30',
      'healthy-backup-deleted',
    );
    await ask(model);
    expect(await readMetrics()).toContain(`channel_id="${primaryChannel.id}"`);
    await gateway.store.deleteChannel(primaryChannel.id);
    await gateway.refreshRouting();
    expect(await readMetrics()).not.toContain(`gateway_channel_breaker_state{channel="${primaryChannel.name}"`);
  });
});
