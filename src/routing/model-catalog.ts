import type { CatalogModel } from './catalog-model.js';
import { modelCatalogData } from './model-catalog-data.js';

/** Looks models up by id; a model a channel serves but the catalog lacks gets a plain chat entry. */
export interface ModelCatalog {
  find(modelId: string): CatalogModel | undefined;
  describe(modelId: string, fallback: { ownedBy: string; created: number }): CatalogModel;
}

/** The built-in catalog, optionally extended or overridden by operator entries with the same id. */
export function createModelCatalog(overrides: CatalogModel[] = []): ModelCatalog {
  const byId = new Map<string, CatalogModel>();
  for (const model of [...modelCatalogData, ...overrides]) byId.set(model.id, model);
  return {
    find: (modelId) => byId.get(modelId),
    describe(modelId, fallback) {
      // Unknown models may take images: the vendor, not the gateway, is the judge of what it cannot read.
      return byId.get(modelId) ?? { id: modelId, ...fallback, kind: 'any', inputModalities: ['text', 'image'] };
    },
  };
}
