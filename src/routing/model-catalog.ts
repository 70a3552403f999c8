import type { CatalogModel } from './catalog-model.js';
import { modelCatalogData } from './model-catalog-data.js';

/** Looks models up by id or alias; a model a channel serves but the catalog lacks gets a plain chat entry. */
export interface ModelCatalog {
  /** the model with this id, or the model this alias names, returned under the alias as its id */
  find(modelId: string): CatalogModel | undefined;
  describe(modelId: string, fallback: { ownedBy: string; created: number }): CatalogModel;
}

/**
 * A catalog of the given models (by default the built-in ones; see applyModelCatalogOverrides for an operator's file). An alias
 * (`claude-3-5-sonnet-latest`) resolves to its pinned entry, shown under the alias so `/v1/models` and responses
 * echo the name the client used; an id always wins over another model's alias.
 */
export function createModelCatalog(models: readonly CatalogModel[] = modelCatalogData): ModelCatalog {
  const byId = new Map<string, CatalogModel>();
  for (const model of models) byId.set(model.id, model);
  const byAlias = new Map<string, CatalogModel>();
  for (const model of byId.values()) {
    const { aliases = [], ...pinned } = model;
    for (const alias of aliases) {
      if (!byId.has(alias)) byAlias.set(alias, { ...pinned, id: alias, aliasOf: model.id });
    }
  }
  const find = (modelId: string): CatalogModel | undefined => byId.get(modelId) ?? byAlias.get(modelId);
  return {
    find,
    describe(modelId, fallback) {
      // Unknown models may take images: the vendor, not the gateway, is the judge of what it cannot read.
      return find(modelId) ?? { id: modelId, ...fallback, kind: 'any', inputModalities: ['text', 'image'] };
    },
  };
}
