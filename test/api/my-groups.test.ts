// GET /api/me/groups: only the caller's groups, `*` expanded to the served models, prices after each group's ratio.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUnitPrice,
  startBillingTestGateway,
  type BillingTestGateway,
} from '../billing/start-billing-test-gateway.js';
import { callConsoleApi, createSessionToken } from './console-api-client.js';

let gateway: BillingTestGateway;

beforeAll(async () => {
  gateway = await startBillingTestGateway({
    models: ['chat-model', 'image-model'],
    prices: [
      {
        ...createUnitPrice('chat-model'),
        inputPerMillion: 2_000_000,
        outputPerMillion: 8_000_000,
        cachedInputPerMillion: 500_000,
        cacheWritePerMillion: 2_500_000,
        imagePrices: {},
        audioPerMinute: 0,
      },
      { ...createUnitPrice('image-model'), imagePrices: { '1024x1024': 40_000 }, audioPerMinute: 0, videoPerSecond: 3 },
      createUnitPrice('retired-model'),
    ],
  });
});

afterAll(async () => {
  await gateway?.close();
});

describe('my groups', () => {
  it('lists only the granted groups, with their models and prices after the group ratio', async () => {
    const { running } = gateway;
    const { store, billing } = running;
    const user = await gateway.createUser('user');
    const [everything, chatOnly, notGranted] = await billing.exclusive(async () => [
      await store.createModelGroup({ name: 'everything', description: 'all served models', models: ['*'] }),
      await store.createModelGroup({
        name: 'chat-only',
        description: '',
        models: ['chat-model', 'retired-model', 'unpriced-model'],
      }),
      await store.createModelGroup({ name: 'not-granted', description: '', models: ['*'] }),
    ]);
    await billing.exclusive(async () => {
      await store.grantUserGroups(user.id, [everything.id, chatOnly.id]);
      await billing.store.setGroupPriceRatio(everything.id, 1_500_000);
      await billing.store.setGroupPriceRatio(notGranted.id, 100_000);
    });
    await billing.refresh(true);
    const token = await createSessionToken(gateway, user.id);

    const answer = await callConsoleApi(gateway, 'GET', '/me/groups', token);
    expect(answer.status).toBe(200);
    const groups = answer.body.data as Array<{
      name: string;
      priceRatioMillionths: number;
      models: Array<{ id: string; available: boolean; prices: Record<string, unknown> }>;
    }>;
    expect(groups.map((group) => group.name).sort()).toEqual(['chat-only', 'everything']);

    const all = groups.find((group) => group.name === 'everything')!;
    expect(all.priceRatioMillionths).toBe(1_500_000);
    expect(all.models.map((model) => model.id)).toEqual(['chat-model', 'image-model']);
    expect(all.models[0]).toMatchObject({
      available: true,
      prices: {
        inputPerMillion: 3_000_000,
        outputPerMillion: 12_000_000,
        cachedInputPerMillion: 750_000,
        cacheWritePerMillion: 3_750_000,
      },
    });
    expect(all.models[0]!.prices).not.toHaveProperty('imagePrices');
    expect(all.models[1]!.prices).toMatchObject({ imagePrices: { '1024x1024': 60_000 }, videoPerSecond: 5 });
    expect(all.models[1]!.prices).not.toHaveProperty('audioPerMinute');

    // A model without any price cannot be used (404 model_not_found), so it is not offered.
    const chat = groups.find((group) => group.name === 'chat-only')!;
    expect(chat.priceRatioMillionths).toBe(1_000_000);
    expect(chat.models.map((model) => [model.id, model.available])).toEqual([
      ['chat-model', true],
      ['retired-model', false],
    ]);
    expect(chat.models[0]!.prices).toMatchObject({ inputPerMillion: 2_000_000, outputPerMillion: 8_000_000 });
  });

  it('needs a signed-in user', async () => {
    expect((await callConsoleApi(gateway, 'GET', '/me/groups', undefined)).status).toBe(401);
  });
});
