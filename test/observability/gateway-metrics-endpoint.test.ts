// `/metrics` as Prometheus scrapes it, after real traffic through a billed gateway: a chat that fails over from a
// failing channel (whose breaker opens), a refusal for an empty balance, a request that runs into debt, and a stream
// held open during a scrape. The exposition is parsed strictly, then each gateway metric is checked by value.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChannelHealthSettings } from '../../src/config/channel-health-settings.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import { parsePrometheusText, type PrometheusFamily } from '../doubles/prometheus/parse-prometheus-text.js';

const model = 'metrics-chat';
const debtModel = 'metrics-debt';
const stallModel = 'metrics-stall';
/** micro-units the debtor starts with: enough for the hold of a 5-token answer, not for 1,000 hidden reasoning tokens */
const debtorBalance = 200;

let gateway: BillingTestGateway;

/** Scrapes `/metrics` and parses it strictly; every family must have HELP and TYPE. */
async function scrape(): Promise<Map<string, PrometheusFamily>> {
  const response = await request(`${gateway.url}/metrics`);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  const families = parsePrometheusText(await response.body.text());
  for (const family of families.values()) {
    expect(family.help, family.name).toBeDefined();
    expect(family.type, family.name).not.toBe('untyped');
  }
  return families;
}

/** The value of the one sample of `name` whose labels include `labels`; fails when there is not exactly one. */
function valueOf(families: Map<string, PrometheusFamily>, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name);
  expect(family, `${name} is exposed`).toBeDefined();
  const matching = family!.samples.filter((sample) =>
    Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  );
  expect(matching, `${name} ${JSON.stringify(labels)}`).toHaveLength(1);
  return matching[0]!.value;
}

async function newUserWithKey(balance: number): Promise<{ user: UserRecord; secret: string; apiKeyId: string }> {
  const user = await gateway.createUser();
  if (balance > 0) await gateway.topUp(user, balance);
  const key = await gateway.createKey(user);
  return { user, secret: key.secret, apiKeyId: key.apiKeyId };
}

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [model],
    prices: [createUnitPrice(model), createUnitPrice(debtModel), createUnitPrice(stallModel)],
    // Rows stay queued until the test flushes them, so the backlog is seen before and after.
    billing: { flushIntervalMs: 3_600_000 },
    config: {
      // One failure opens a breaker; the error-rate trigger is off.
      channelHealth: { ...defaultChannelHealthSettings, consecutiveFailures: 1, errorRatePercent: 0 },
      // A stream whose client left is cut at once and charged its hold, not read on.
      abandonedStreamDrains: 0,
    },
  });
  // Tried first for the chat model, and always answers 500: the chat fails over to the simulator's own channel.
  await gateway.createChannel({
    protocol: 'openai',
    baseUrl: gateway.simulator.url,
    secret: 'upstream',
    models: { [model]: 'sim-error-500' },
    priority: 10,
  });
  await gateway.createChannel({
    protocol: 'openai',
    baseUrl: gateway.simulator.url,
    secret: 'upstream',
    models: { [debtModel]: 'sim-reasoning-1000', [stallModel]: 'sim-stall-after-1' },
  });
});

afterAll(async () => {
  await gateway?.close();
});

describe('/metrics after traffic', () => {
  it('exposes spend, holds, debt, settlement, in-flight, breakers, refusals and store health with their values', async () => {
    const payer = await newUserWithKey(1_000_000);
    const chat = await gateway.client(payer.secret).chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'hello metrics' }],
      max_tokens: 20,
    });
    const chatCost = chat.usage!.prompt_tokens + chat.usage!.completion_tokens;

    const broke = await newUserWithKey(0);
    await expect(
      gateway.client(broke.secret).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });

    const debtor = await newUserWithKey(debtorBalance);
    const reasoned = await gateway.client(debtor.secret).chat.completions.create({
      model: debtModel,
      messages: [{ role: 'user', content: 'think hard' }],
      max_tokens: 5,
    });
    const debtCost = reasoned.usage!.prompt_tokens + reasoned.usage!.completion_tokens;
    expect(debtCost).toBeGreaterThan(debtorBalance);

    // A stream held open during the scrape: its hold and its request are in flight.
    const streamer = await newUserWithKey(1_000_000);
    const abort = new AbortController();
    const stream = await gateway
      .client(streamer.secret)
      .chat.completions.create(
        { model: stallModel, messages: [{ role: 'user', content: 'stream please' }], stream: true, max_tokens: 50 },
        { signal: abort.signal },
      );
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await gateway.running.billing.settlementsQueued();

    const during = await scrape();
    const held = gateway.running.billing.memory.user(streamer.user.id).held;
    expect(held).toBeGreaterThan(0);
    expect(valueOf(during, 'gateway_holds_open')).toBe(1);
    expect(valueOf(during, 'gateway_holds_micro_units')).toBe(held);
    expect(valueOf(during, 'gateway_in_flight_requests', { route_group: 'v1_chat_completions' })).toBe(1);
    // The scrape itself is in flight, on a connection of its own group.
    expect(valueOf(during, 'gateway_in_flight_requests', { route_group: 'probes' })).toBe(1);
    expect(valueOf(during, 'gateway_open_connections', { route_group: 'probes' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(during, 'gateway_open_connections', { route_group: 'v1_chat_completions' })).toBeGreaterThanOrEqual(
      1,
    );

    // Spend: the chat at its token count (one micro-unit a token), the reasoning request whole, part of it as debt.
    expect(valueOf(during, 'gateway_spend_micro_units_total', { endpoint: 'chat.completions', model })).toBe(chatCost);
    expect(valueOf(during, 'gateway_spend_micro_units_total', { endpoint: 'chat.completions', model: debtModel })).toBe(
      debtCost,
    );
    expect(valueOf(during, 'gateway_debt_recorded_micro_units_total')).toBe(debtCost - debtorBalance);
    expect(valueOf(during, 'gateway_debt_outstanding_micro_units')).toBe(debtCost - debtorBalance);
    expect(valueOf(during, 'gateway_users_in_debt')).toBe(1);

    // Settled rows wait for the batch writer: the chat and the debt request (the refusal is a count, not a row).
    expect(valueOf(during, 'gateway_settlement_backlog_rows')).toBe(2);
    expect(valueOf(during, 'gateway_settlement_lag_seconds')).toBeGreaterThanOrEqual(0);

    // The failing channel's breaker opened on its 500; the serving channel's is closed.
    const failing = (await gateway.running.store.listChannels()).find(
      (channel) => channel.modelMapping[model] === 'sim-error-500',
    )!;
    const serving = (await gateway.running.store.listChannels()).find((channel) => channel.name.startsWith('sim-'))!;
    expect(valueOf(during, 'gateway_channel_breaker_state_code', { channel: failing.name, model })).toBe(1);
    expect(valueOf(during, 'gateway_channel_breaker_state_code', { channel: serving.name, model })).toBe(0);
    expect(
      valueOf(during, 'gateway_channel_breaker_transitions_total', { channel: failing.name, model, to: 'open' }),
    ).toBe(1);

    // Refusals by reason: one for the empty balance; every other reason is listed at 0.
    expect(valueOf(during, 'gateway_refusals_total', { reason: 'insufficient_quota' })).toBe(1);
    for (const reason of ['rate_limit', 'in_flight_cap', 'per_user_cap', 'per_address_cap', 'shutting_down'])
      expect(valueOf(during, 'gateway_refusals_total', { reason })).toBe(0);

    // Store health from the readiness probe: the database answered just now.
    expect(valueOf(during, 'gateway_store_up', { store: 'database' })).toBe(1);
    const age = valueOf(during, 'gateway_store_last_check_age_seconds', { store: 'database' });
    expect(age).toBeGreaterThanOrEqual(0);

    // No key or user identifies a series: cardinality stays bounded, and ids belong to traces and logs.
    const identifiers = [payer, broke, debtor, streamer].flatMap((owner) => [owner.user.id, owner.apiKeyId]);
    for (const family of during.values()) {
      for (const sample of family.samples) {
        for (const [label, value] of Object.entries(sample.labels)) {
          expect(label, family.name).not.toMatch(/key|user/i);
          expect(identifiers, `${family.name}{${label}}`).not.toContain(value);
        }
      }
    }

    // The client leaves: the stream is cut, its hold charged and released; then every row is written.
    abort.abort();
    await settleEverything([gateway.running], streamer.user.id);
    await settleEverything([gateway.running], payer.user.id);
    const after = await scrape();
    expect(valueOf(after, 'gateway_holds_open')).toBe(0);
    expect(valueOf(after, 'gateway_holds_micro_units')).toBe(0);
    expect(valueOf(after, 'gateway_in_flight_requests', { route_group: 'v1_chat_completions' })).toBe(0);
    expect(valueOf(after, 'gateway_spend_micro_units_total', { endpoint: 'chat.completions', model: stallModel })).toBe(
      held,
    );
    expect(valueOf(after, 'gateway_settlement_backlog_rows')).toBe(0);
    expect(valueOf(after, 'gateway_settlement_lag_seconds')).toBe(0);
  });
});
