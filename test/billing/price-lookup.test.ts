// Which price a request is billed at: an alias takes its pinned id's operator price (unless the operator priced the
// alias itself), and a model with no price at all is refused instead of billed at a made-up one.
import { describe, expect, it } from 'vitest';
import { BillingMemory } from '../../src/billing/billing-memory.js';
import type { ModelPrice } from '../../src/billing/model-price.js';
import { lookUpVideoSecondPrice } from '../../src/billing/price-video-seconds.js';
import { requireModelPrice } from '../../src/billing/require-model-price.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { CatalogModel } from '../../src/routing/catalog-model.js';
import { modelCatalogData } from '../../src/routing/model-catalog-data.js';
import { createModelCatalog } from '../../src/routing/model-catalog.js';
import type { BillingSnapshotRecords } from '../../src/storage/billing-records.js';

const pinnedId = 'claude-haiku-4-5-20251001';
const alias = 'claude-haiku-4-5';

function operatorPrice(modelId: string, inputPerMillion: number, extra: Partial<ModelPrice> = {}): ModelPrice {
  return {
    modelId,
    inputPerMillion,
    cachedInputPerMillion: inputPerMillion,
    cacheWritePerMillion: inputPerMillion,
    outputPerMillion: 2 * inputPerMillion,
    imagePrices: {},
    audioPerMinute: 0,
    videoPerSecond: 0,
    ...extra,
  };
}

function snapshotWith(prices: ModelPrice[]): BillingSnapshotRecords {
  return { revision: 1, users: [], apiKeys: [], prices, groupPriceRatios: [] };
}

function memoryWith(prices: ModelPrice[]): BillingMemory {
  const memory = new BillingMemory(modelCatalogData);
  memory.load(snapshotWith(prices), new Map(), new Map());
  return memory;
}

/** The catalog entry a request by `modelId` resolves to, as the routing table hands it to billing. */
function requestedModel(modelId: string): CatalogModel {
  return createModelCatalog(modelCatalogData).describe(modelId, { ownedBy: 'custom', created: 0 });
}

function refusalOf(action: () => unknown): GatewayError {
  try {
    action();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('aliases are billed at their pinned id’s operator price', () => {
  it("resolves the alias to its pinned id before the operator's price is looked up", () => {
    const pinnedPrice = operatorPrice(pinnedId, 2_700_000_000);
    const memory = memoryWith([pinnedPrice]);
    const model = requestedModel(alias);
    expect(model).toMatchObject({ id: alias, aliasOf: pinnedId });
    expect(memory.priceOf(alias, model)).toEqual(pinnedPrice);
    // Looked up by name only (the price API's reset answer), the catalog known at start still names the pinned id.
    expect(memory.priceOf(alias)).toEqual(pinnedPrice);
    expect(requireModelPrice(memory, model)).toEqual(pinnedPrice);
  });

  it("takes the catalog's list price while neither the alias nor its pinned id has an operator price", () => {
    const memory = memoryWith([]);
    expect(memory.priceOf(alias, requestedModel(alias))).toMatchObject({ inputPerMillion: 1_000_000 });
  });

  it('lets an explicit operator price on the alias name win over the pinned id’s', () => {
    const aliasPrice = operatorPrice(alias, 5_000_000);
    const memory = memoryWith([operatorPrice(pinnedId, 2_700_000_000), aliasPrice]);
    expect(memory.priceOf(alias, requestedModel(alias))).toEqual(aliasPrice);
    expect(memory.priceOf(pinnedId, requestedModel(pinnedId))?.inputPerMillion).toBe(2_700_000_000);
  });

  it('lists an alias at the price it is billed at', () => {
    const memory = memoryWith([operatorPrice(pinnedId, 2_700_000_000)]);
    const listed = new Map(memory.listPrices(modelCatalogData).map((price) => [price.modelId, price]));
    expect(listed.get(alias)).toEqual({ ...operatorPrice(pinnedId, 2_700_000_000), modelId: alias });
    expect(listed.get(pinnedId)?.inputPerMillion).toBe(2_700_000_000);
    const withAliasPrice = memoryWith([operatorPrice(pinnedId, 2_700_000_000), operatorPrice(alias, 5_000_000)]);
    const relisted = new Map(withAliasPrice.listPrices(modelCatalogData).map((price) => [price.modelId, price]));
    expect(relisted.get(alias)?.inputPerMillion).toBe(5_000_000);
  });
});

describe('a model without a price', () => {
  it('has no price and is refused with 404 model_not_found naming it, not billed at a fallback', () => {
    const memory = memoryWith([]);
    const model = requestedModel('made-up-model');
    expect(memory.priceOf(model.id, model)).toBeUndefined();
    const refusal = refusalOf(() => requireModelPrice(memory, model));
    expect(refusal.status).toBe(404);
    expect(refusal.toBody().error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect(refusal.message).toContain("'made-up-model' has no price");
  });

  it("is billed at the operator's default price `*` when one is set; priced models keep their own", () => {
    const defaultPrice = operatorPrice('*', 3_000_000);
    const memory = memoryWith([defaultPrice]);
    expect(requireModelPrice(memory, requestedModel('made-up-model'))).toEqual(defaultPrice);
    expect(memory.priceOf('gpt-4o-mini', requestedModel('gpt-4o-mini'))?.inputPerMillion).toBe(150_000);
    expect(memory.priceOf(alias, requestedModel(alias))?.inputPerMillion).toBe(1_000_000);
  });

  it('refuses a video submit for a model without a price before anything is held; a listed video model has its own', () => {
    const memory = memoryWith([]);
    const refusal = refusalOf(() => lookUpVideoSecondPrice(memory, requestedModel('made-up-video-model'), 'g1'));
    expect([refusal.status, refusal.code, refusal.param]).toEqual([404, 'model_not_found', 'model']);
    expect(lookUpVideoSecondPrice(memory, requestedModel('sora-2'), 'g1').perSecond).toBeGreaterThan(0);
  });

  it('refuses image requests for a model whose price has no image price, and takes them once it has one', () => {
    const memory = memoryWith([operatorPrice('*', 3_000_000)]);
    const model = requestedModel('made-up-image-model');
    const refusal = refusalOf(() => requireModelPrice(memory, model, 'images.generations'));
    expect([refusal.status, refusal.code, refusal.param]).toEqual([404, 'model_not_found', 'model']);
    expect(refusal.message).toContain('no image price');
    expect(requireModelPrice(memory, model, 'chat.completions').inputPerMillion).toBe(3_000_000);
    const priced = memoryWith([operatorPrice('*', 3_000_000, { imagePrices: { default: 50_000 } })]);
    expect(requireModelPrice(priced, model, 'images.edits').imagePrices).toEqual({ default: 50_000 });
  });
});
