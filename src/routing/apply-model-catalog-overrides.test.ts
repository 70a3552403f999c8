import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyModelCatalogOverrides } from './apply-model-catalog-overrides.js';
import { createModelCatalog } from './model-catalog.js';
import { modelCatalogData } from './model-catalog-data.js';

function catalogFile(entries: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gateway-catalog-')), 'catalog.json');
  writeFileSync(file, JSON.stringify(entries));
  return file;
}

describe('applyModelCatalogOverrides', () => {
  it('changes only the named fields of a built-in model and adds new models', () => {
    const models = applyModelCatalogOverrides(
      modelCatalogData,
      catalogFile([
        { id: 'gpt-4o', contextWindow: 64_000, defaultPrices: { inputPerMillion: 1, outputPerMillion: 2 } },
        { id: 'in-house-llm', ownedBy: 'acme', kind: 'chat', contextWindow: 32_000 },
      ]),
    );
    const catalog = createModelCatalog(models);
    expect(catalog.find('gpt-4o')).toMatchObject({
      contextWindow: 64_000,
      ownedBy: 'openai',
      inputModalities: ['text', 'image'],
      defaultPrices: { inputPerMillion: 1, outputPerMillion: 2 },
    });
    expect(catalog.find('in-house-llm')).toMatchObject({ ownedBy: 'acme', kind: 'chat', inputModalities: ['text'] });
    expect(models).toHaveLength(modelCatalogData.length + 1);
  });

  it('takes a 1-hour cache-write list price; the built-in Claude prices have one at twice the input', () => {
    const models = applyModelCatalogOverrides(
      modelCatalogData,
      catalogFile([
        {
          id: 'in-house-claude',
          ownedBy: 'acme',
          kind: 'chat',
          defaultPrices: { inputPerMillion: 1, outputPerMillion: 2, cacheWriteOneHourPerMillion: 3 },
        },
      ]),
    );
    const catalog = createModelCatalog(models);
    expect(catalog.find('in-house-claude')?.defaultPrices).toMatchObject({ cacheWriteOneHourPerMillion: 3 });
    expect(catalog.find('claude-sonnet-4-5')?.defaultPrices).toMatchObject({
      inputPerMillion: 3_000_000,
      cacheWritePerMillion: 3_750_000,
      cacheWriteOneHourPerMillion: 6_000_000,
    });
  });

  it("lets an operator name a video model's upstream model and orientation, and refuses an unknown orientation", () => {
    const entry = {
      id: 'veo-3.1-generate-preview-landscape',
      ownedBy: 'google',
      kind: 'video',
      videoDurations: [5, 10],
      videoUpstreamModelId: 'veo-3.1-generate-preview',
      videoOrientation: 'landscape',
    };
    const catalog = createModelCatalog(applyModelCatalogOverrides(modelCatalogData, catalogFile([entry])));
    expect(catalog.find('veo-3.1-generate-preview-landscape')).toMatchObject({
      videoUpstreamModelId: 'veo-3.1-generate-preview',
      videoOrientation: 'landscape',
    });
    expect(() =>
      applyModelCatalogOverrides(modelCatalogData, catalogFile([{ ...entry, videoOrientation: 'square' }])),
    ).toThrow(/0\.videoOrientation/);
  });

  it('keeps the built-in catalog without a file', () => {
    expect(applyModelCatalogOverrides(modelCatalogData, undefined)).toEqual(modelCatalogData);
  });

  it('refuses a malformed file naming the entry and field, and a new model without owner or kind', () => {
    expect(() =>
      applyModelCatalogOverrides(modelCatalogData, catalogFile([{ id: 'gpt-4o', contextWindow: -5 }])),
    ).toThrow(/0\.contextWindow/);
    expect(() => applyModelCatalogOverrides(modelCatalogData, catalogFile([{ id: 'x', typo: 1 }]))).toThrow(
      /catalog file/,
    );
    expect(() => applyModelCatalogOverrides(modelCatalogData, catalogFile([{ id: 'new-model' }]))).toThrow(
      /needs ownedBy and kind/,
    );
  });
});
