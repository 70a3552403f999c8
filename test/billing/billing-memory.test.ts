import { describe, expect, it } from 'vitest';
import { BillingMemory, isAddressAllowed } from '../../src/billing/billing-memory.js';
import type { ModelPrice } from '../../src/billing/model-price.js';
import type { CatalogModel } from '../../src/routing/catalog-model.js';
import type { BillingSnapshotRecords } from '../../src/storage/billing-records.js';

const catalogModel: CatalogModel = {
  id: 'listed',
  ownedBy: 'vendor',
  kind: 'chat',
  created: 0,
  inputModalities: ['text'],
  aliases: ['listed-latest'],
  defaultPrices: { inputPerMillion: 2_500_000, outputPerMillion: 10_000_000, cachedInputPerMillion: 1_250_000 },
};
const noLimits = { requestsPerMinute: null, tokensPerMinute: null, maxConcurrentRequests: null };

function snapshot(overrides: Partial<BillingSnapshotRecords> = {}): BillingSnapshotRecords {
  return {
    revision: 1,
    users: [{ userId: 'u1', balance: 1_000, debt: 0, sequence: 3, limits: noLimits }],
    apiKeys: [{ apiKeyId: 'k1', spendingCap: 500, spent: 100, allowedIps: ['10.0.0.0/8', '::1'], limits: noLimits }],
    prices: [],
    groupPriceRatios: [{ groupId: 'g1', priceRatioMillionths: 1_500_000 }],
    ...overrides,
  };
}

describe('BillingMemory', () => {
  it('prices a model by the operator, else the catalog (aliases too), else not at all', () => {
    const memory = new BillingMemory([catalogModel]);
    memory.load(snapshot(), new Map(), new Map());
    expect(memory.priceOf('listed')).toMatchObject({
      inputPerMillion: 2_500_000,
      cachedInputPerMillion: 1_250_000,
      cacheWritePerMillion: 2_500_000,
      outputPerMillion: 10_000_000,
    });
    expect(memory.priceOf('listed-latest')?.inputPerMillion).toBe(2_500_000);
    expect(memory.priceOf('unknown')).toBeUndefined();
    const operatorPrice: ModelPrice = {
      modelId: 'listed',
      inputPerMillion: 7,
      cachedInputPerMillion: 7,
      cacheWritePerMillion: 7,
      outputPerMillion: 9,
      imagePrices: {},
      audioPerMinute: 0,
      videoPerSecond: 0,
    };
    memory.load(snapshot({ prices: [operatorPrice] }), new Map(), new Map());
    expect(memory.priceOf('listed')).toEqual(operatorPrice);
    expect(memory.priceRatioOf('g1')).toBe(1_500_000);
    expect(memory.priceRatioOf('other')).toBe(1_000_000);
  });

  it("prices a request's catalog entry by its own list prices, and a replaced entry by the new ones", () => {
    const memory = new BillingMemory();
    memory.load(snapshot(), new Map(), new Map());
    const first = memory.priceOf('listed', catalogModel);
    expect(first).toMatchObject({
      modelId: 'listed',
      inputPerMillion: 2_500_000,
      cacheWritePerMillion: 2_500_000,
      outputPerMillion: 10_000_000,
    });
    expect(memory.priceOf('listed', catalogModel)).toEqual(first);
    // An admin's override replaces the entry with a new object (applyModelCatalogEntries): its prices apply at once.
    const overridden: CatalogModel = {
      ...catalogModel,
      defaultPrices: { inputPerMillion: 3_000_000, outputPerMillion: 12_000_000 },
    };
    expect(memory.priceOf('listed', overridden)).toMatchObject({
      inputPerMillion: 3_000_000,
      cachedInputPerMillion: 3_000_000,
      outputPerMillion: 12_000_000,
    });
    expect(memory.priceOf('listed-latest', overridden)).toMatchObject({
      modelId: 'listed-latest',
      inputPerMillion: 3_000_000,
    });
    expect(memory.priceOf('listed', catalogModel)?.inputPerMillion).toBe(2_500_000);
  });

  it('subtracts unwritten charges from reloaded balances and keeps holds across reloads', () => {
    const memory = new BillingMemory();
    memory.load(snapshot(), new Map(), new Map());
    memory.user('u1').held = 300;
    memory.load(snapshot(), new Map([['u1', 40]]), new Map([['k1', 40]]));
    expect(memory.user('u1')).toMatchObject({ balance: 960, held: 300 });
    expect(memory.key('k1')).toMatchObject({ spent: 140 });
  });

  it('adds debts not yet written to the stored debt on reload', () => {
    const memory = new BillingMemory();
    memory.load(
      snapshot({ users: [{ userId: 'u1', balance: 0, debt: 25, sequence: 4, limits: noLimits }] }),
      new Map(),
      new Map(),
      new Map([['u1', 10]]),
    );
    expect(memory.user('u1')).toMatchObject({ balance: 0, debt: 35 });
    expect(memory.user('new-user').debt).toBe(0);
  });

  it("checks client addresses against a key's allow-list, IPv4-mapped IPv6 included", () => {
    const memory = new BillingMemory();
    memory.load(snapshot(), new Map(), new Map());
    const list = memory.key('k1')!.allowedAddresses;
    expect(isAddressAllowed(list, '10.1.2.3')).toBe(true);
    expect(isAddressAllowed(list, '::ffff:10.1.2.3')).toBe(true);
    expect(isAddressAllowed(list, '::1')).toBe(true);
    expect(isAddressAllowed(list, '192.168.0.1')).toBe(false);
    expect(isAddressAllowed(null, '192.168.0.1')).toBe(true);
  });
});
