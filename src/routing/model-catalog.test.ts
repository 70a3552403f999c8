import { describe, expect, it } from 'vitest';
import type { CatalogModel } from './catalog-model.js';
import { createModelCatalog } from './model-catalog.js';
import { modelCatalogData, modelCatalogVersion } from './model-catalog-data.js';

const minimumContextWindow = 64_000;
const maximumContextWindow = 2_097_152;

/**
 * Chat models whose real context window is below the spec's 64K floor: older or special models kept because
 * clients still name them. Each is listed with the vendor's documented window.
 */
const smallContextModels: Readonly<Record<string, string>> = {
  'gpt-4': '8K, the original GPT-4 (2023)',
  'gpt-4-0613': '8K, GPT-4 snapshot (2023)',
  'gpt-3.5-turbo': '16K, GPT-3.5 (2023)',
  'gpt-3.5-turbo-0125': '16K, GPT-3.5 snapshot',
  'gpt-3.5-turbo-1106': '16K, GPT-3.5 snapshot',
  'gpt-3.5-turbo-16k': '16K, GPT-3.5 (2023)',
  'grok-2-vision-1212': '32K, xAI vision model (2024)',
  'grok-vision-beta': '8K, xAI vision beta (2024)',
  'qwen-max': '32K, Qwen2.5-Max on DashScope',
  'qwen-max-2025-01-25': '32K, Qwen2.5-Max snapshot',
};

/** Chat models whose window exceeds the spec's 2M ceiling on the vendor that serves them. */
const largeContextModels: Readonly<Record<string, string>> = {
  'meta.llama4-scout-17b-instruct-v1:0': '3.5M on AWS Bedrock',
};

const chatModels = modelCatalogData.filter((model) => model.kind === 'chat');

function byId(id: string): CatalogModel {
  const model = modelCatalogData.find((entry) => entry.id === id);
  if (!model) throw new Error(`missing ${id}`);
  return model;
}

describe('model catalog data', () => {
  it('lists at least 200 models and names its price date in the version', () => {
    expect(modelCatalogData.length).toBeGreaterThanOrEqual(200);
    expect(modelCatalogVersion).toMatch(/prices-\d{4}-\d{2}/);
  });

  it('has unique ids, unique aliases, and no alias equal to any id', () => {
    const ids = modelCatalogData.map((model) => model.id);
    expect(new Set(ids).size).toBe(ids.length);
    const aliases = modelCatalogData.flatMap((model) => model.aliases ?? []);
    expect(new Set(aliases).size).toBe(aliases.length);
    const idSet = new Set(ids);
    expect(aliases.filter((alias) => idSet.has(alias))).toEqual([]);
  });

  it('gives every model a vendor, a plausible release time and at least one input kind', () => {
    const earliest = Date.UTC(2020, 0, 1) / 1000;
    const latest = Date.UTC(2027, 0, 1) / 1000;
    for (const model of modelCatalogData) {
      expect(model.ownedBy, model.id).toMatch(/^[a-z0-9]+$/);
      expect(Number.isInteger(model.created) && model.created > earliest && model.created < latest, model.id).toBe(
        true,
      );
      expect(model.inputModalities.length, model.id).toBeGreaterThan(0);
    }
  });

  it('gives every chat model a context window from 64K to 2M, except the documented old and oversized ones', () => {
    for (const model of chatModels) {
      const window = model.contextWindow ?? 0;
      if (model.id in smallContextModels) expect(window, model.id).toBeLessThan(minimumContextWindow);
      else if (model.id in largeContextModels) expect(window, model.id).toBeGreaterThan(maximumContextWindow);
      else {
        expect(window, model.id).toBeGreaterThanOrEqual(minimumContextWindow);
        expect(window, model.id).toBeLessThanOrEqual(maximumContextWindow);
      }
      expect(model.inputModalities, model.id).toContain('text');
      if (model.maxOutputTokens !== undefined) expect(model.maxOutputTokens, model.id).toBeLessThanOrEqual(window);
    }
  });

  it('follows the spec families: most models 128K, Claude 200K, Gemini 1M or 2M', () => {
    const windows = chatModels.map((model) => model.contextWindow ?? 0);
    const around128K = windows.filter((window) => window >= 128_000 && window <= 131_072).length;
    expect(around128K / windows.length).toBeGreaterThan(0.4);
    for (const model of chatModels.filter((entry) => /claude-(3|sonnet|opus|haiku)/.test(entry.id)))
      expect(model.contextWindow, model.id).toBe(200_000);
    for (const model of chatModels.filter((entry) => entry.id.startsWith('gemini-')))
      expect([1_048_576, 2_097_152], model.id).toContain(model.contextWindow);
  });

  it('gives every image model its sizes, and the spec sizes exactly to dall-e-3, dall-e-2 and gpt-image-1', () => {
    for (const model of modelCatalogData.filter((entry) => entry.kind === 'image')) {
      expect(model.imageSizes?.length, model.id).toBeGreaterThan(0);
      for (const size of model.imageSizes ?? []) expect(size, model.id).toMatch(/^\d+x\d+$/);
    }
    expect(byId('dall-e-3').imageSizes).toEqual(['1024x1024', '1792x1024', '1024x1792']);
    expect(byId('dall-e-2').imageSizes).toEqual(['256x256', '512x512', '1024x1024']);
    expect(byId('dall-e-2').supportsImageEdits).toBe(true);
    expect(byId('gpt-image-1').imageSizes).toEqual(['1024x1024', '1536x1024', '1024x1536']);
  });

  it('lists every video model as a spec pair: a portrait id and the same id with -landscape, both 5/10/15/20 s, one upstream model', () => {
    const videoModels = modelCatalogData.filter((model) => model.kind === 'video');
    expect(videoModels.map((model) => model.id).sort()).toEqual(
      ['sora-2', 'sora-2-pro', 'veo-3.0-generate-001', 'veo-3.0-fast-generate-001']
        .flatMap((id) => [id, `${id}-landscape`])
        .sort(),
    );
    for (const model of videoModels) {
      expect(model.videoDurations, model.id).toEqual([5, 10, 15, 20]);
      const portraitId = model.id.replace(/-landscape$/, '');
      expect(model.videoUpstreamModelId, model.id).toBe(portraitId);
      expect(model.videoOrientation, model.id).toBe(model.id.endsWith('-landscape') ? 'landscape' : 'portrait');
      expect(model.defaultPrices?.perVideoSecond, model.id).toBe(byId(portraitId).defaultPrices?.perVideoSecond);
    }
  });

  it("prices video per second from the vendors' public lists", () => {
    const perSecond = (id: string): number | undefined => byId(id).defaultPrices?.perVideoSecond;
    expect(perSecond('sora-2')).toBe(100_000);
    expect(perSecond('sora-2-pro')).toBe(300_000);
    expect(perSecond('veo-3.0-generate-001')).toBe(400_000);
    expect(perSecond('veo-3.0-fast-generate-001')).toBe(150_000);
  });

  it('writes every price as a non-negative integer of micro-units, and image prices only for offered sizes', () => {
    for (const model of modelCatalogData) {
      const prices = model.defaultPrices;
      if (!prices) continue;
      const amounts = [
        prices.inputPerMillion,
        prices.outputPerMillion,
        prices.cachedInputPerMillion,
        prices.cacheWritePerMillion,
        prices.perAudioMinute,
        prices.perVideoSecond,
        ...Object.values(prices.perImage ?? {}),
      ].filter((amount) => amount !== undefined);
      for (const amount of amounts)
        expect(Number.isInteger(amount) && amount >= 0, `${model.id}: ${amount}`).toBe(true);
      for (const key of Object.keys(prices.perImage ?? {})) {
        const [size, quality] = key.split(':');
        expect(quality, `${model.id}: ${key}`).toMatch(/^[a-z]+$/);
        expect(model.imageSizes, `${model.id}: ${key}`).toContain(size);
      }
    }
    expect(byId('gpt-4o').defaultPrices).toEqual({
      inputPerMillion: 2_500_000,
      cachedInputPerMillion: 1_250_000,
      outputPerMillion: 10_000_000,
    });
    expect(byId('dall-e-3').defaultPrices?.perImage?.['1024x1024:hd']).toBe(80_000);
  });

  it('prices every chat model', () => {
    const unpriced = chatModels.filter((model) => !model.defaultPrices).map((model) => model.id);
    // Free experimental previews and open models without a reference host price.
    expect(
      unpriced.every((id) => /-exp|^gemma-/.test(id)),
      unpriced.join(', '),
    ).toBe(true);
  });
});

describe('createModelCatalog', () => {
  it('resolves an alias to its pinned entry, shown under the alias', () => {
    const catalog = createModelCatalog();
    const model = catalog.find('claude-3-5-sonnet-latest');
    expect(model).toMatchObject({
      id: 'claude-3-5-sonnet-latest',
      ownedBy: 'anthropic',
      contextWindow: 200_000,
      defaultPrices: byId('claude-3-5-sonnet-20241022').defaultPrices,
    });
    expect(model?.aliases).toBeUndefined();
    expect(catalog.describe('gemini-2.0-flash', { ownedBy: 'x', created: 1 })).toMatchObject({
      id: 'gemini-2.0-flash',
      ownedBy: 'google',
      created: byId('gemini-2.0-flash-001').created,
    });
  });

  it('finds pinned ids as they are', () => {
    expect(createModelCatalog().find('claude-3-5-sonnet-20241022')?.aliases).toEqual(['claude-3-5-sonnet-latest']);
  });

  it('lets an operator entry override a built-in one, and lets an operator id win over an alias', () => {
    const override: CatalogModel = {
      id: 'grok-4',
      ownedBy: 'custom',
      kind: 'chat',
      created: 1,
      inputModalities: ['text'],
    };
    const catalog = createModelCatalog([...modelCatalogData, override, { ...byId('gpt-4o'), contextWindow: 64_000 }]);
    expect(catalog.find('grok-4')).toBe(override);
    expect(catalog.find('grok-4-latest')?.ownedBy).toBe('xai');
    expect(catalog.find('gpt-4o')?.contextWindow).toBe(64_000);
  });

  it('describes an unknown model as a vendor-judged entry', () => {
    expect(createModelCatalog().describe('vendor/unknown', { ownedBy: 'together', created: 5 })).toEqual({
      id: 'vendor/unknown',
      ownedBy: 'together',
      created: 5,
      kind: 'any',
      inputModalities: ['text', 'image'],
    });
  });
});
