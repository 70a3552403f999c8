// A price-changing field the operator enabled is billed at the channel's premium ratio: held at the highest ratio
// among the channels that may serve it, settled at the ratio of the channel that did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/accounts/secret-box.js';
import type { UserRecord } from '../../src/storage/store-records.js';
import {
  billingTestSecretKey,
  createUnitPrice,
  settleEverything,
  startBillingTestGateway,
  type BillingTestGateway,
} from './start-billing-test-gateway.js';

const plainModel = 'plain-model';
const premiumModel = 'premium-model';
// The simulator streams this upstream model slowly, so the hold can be read while the answer is on its way.
const slowUpstreamModel = 'sim-slow-stream';
const startingBalance = 10_000_000;

let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: [],
    prices: [createUnitPrice(plainModel), createUnitPrice(premiumModel)],
  });
  const { running, simulator } = gateway;
  const secretBox = createSecretBox(billingTestSecretKey);
  const channel = (name: string, models: string[], priority: number, settings: Record<string, string>) =>
    running.billing.exclusive(() =>
      running.store.createChannel({
        name,
        protocol: 'openai',
        preset: null,
        baseUrl: simulator.url,
        encryptedSecret: secretBox.encrypt('upstream'),
        models,
        modelMapping: Object.fromEntries(models.map((model) => [model, slowUpstreamModel])),
        priority,
        weight: 1,
        settings,
      }),
    );
  await channel('plain', [plainModel], 0, {});
  // Both enable service_tier; the preferred one (priority 10) charges twice the price, the fallback three times.
  await channel('premium-preferred', [premiumModel], 10, { premiumFields: 'service_tier', premiumPriceRatio: '2' });
  await channel('premium-fallback', [premiumModel], 0, { premiumFields: 'service_tier', premiumPriceRatio: '3.0' });
  await running.routing.refresh();
});

afterAll(async () => {
  await gateway?.close();
});

async function billedUser(): Promise<{ user: UserRecord; secret: string }> {
  const user = await gateway.createUser();
  const key = await gateway.createKey(user);
  await gateway.topUp(user, startingBalance);
  return { user, secret: key.secret };
}

/** Streams one request, reading the user's hold once the first chunk arrived; returns the hold and the settled cost. */
async function heldAndCharged(
  model: string,
  serviceTier?: 'priority' | 'default',
): Promise<{ held: number; cost: number }> {
  const { user, secret } = await billedUser();
  const stream = await gateway.client(secret).chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'one two three four five' }],
    max_tokens: 50,
    stream: true,
    ...(serviceTier ? { service_tier: serviceTier } : {}),
  });
  let held: number | undefined;
  for await (const _chunk of stream) held ??= gateway.running.billing.memory.user(user.id).held;
  await settleEverything([gateway.running], user.id);
  const [log] = await gateway.running.billing.store.listUsageLogs({ userId: user.id, limit: 1 });
  expect(log?.status).toBe(200);
  expect(await gateway.running.billing.store.readBalance(user.id)).toBe(startingBalance - log!.cost);
  return { held: held ?? 0, cost: log!.cost };
}

describe('premium price ratio', () => {
  it('holds at the highest ratio of the enabling channels and settles at the serving channel ratio', async () => {
    const plain = await heldAndCharged(plainModel);
    expect(plain.held).toBeGreaterThan(0);
    expect(plain.cost).toBeGreaterThan(0);

    const premium = await heldAndCharged(premiumModel, 'priority');
    expect(premium.held).toBe(3 * plain.held);
    expect(premium.cost).toBe(2 * plain.cost);
    const forwarded = gateway.simulator.requests.at(-1)?.body as Record<string, unknown>;
    expect(forwarded).toMatchObject({ model: slowUpstreamModel, service_tier: 'priority' });
  });

  it('bills a request without a premium value at the plain price, even on a premium channel', async () => {
    const plain = await heldAndCharged(plainModel);
    const standardTier = await heldAndCharged(premiumModel, 'default');
    expect(standardTier).toEqual(plain);
  });
});
