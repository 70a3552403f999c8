// The /api answers the Groups & prices page reads (docs/API.md "Console API"). Amounts are integer micro-units.

/** One model group of GET /api/groups. */
export interface ModelGroup {
  id: string;
  name: string;
  description: string;
  /** model ids; `*` alone means every model a channel serves */
  models: string[];
  /** 1_000_000 = ×1 */
  priceRatioMillionths: number;
  /** Unix milliseconds */
  createdAt: number;
}

/** One price in force of GET /api/prices (micro-units; token prices per million tokens). */
export interface ModelPrice {
  modelId: string;
  inputPerMillion: number;
  cachedInputPerMillion: number;
  cacheWritePerMillion: number;
  /** 1-hour cache writes; absent: twice the input price */
  cacheWriteOneHourPerMillion?: number;
  outputPerMillion: number;
  imagePrices: Record<string, number>;
  audioPerMinute: number;
  videoPerSecond: number;
}

/** The kinds of model a catalog entry may declare. */
export const catalogModelKinds = ['chat', 'completion', 'embedding', 'image', 'audio', 'video'] as const;

/** A catalog model's kind. */
export type CatalogModelKind = (typeof catalogModelKinds)[number];

/** The catalog fields of an entry this page edits (others are kept as stored). */
export interface CatalogFields {
  ownedBy?: string;
  kind?: CatalogModelKind;
  contextWindow?: number;
  maxOutputTokens?: number;
  defaultPrices?: { inputPerMillion: number; outputPerMillion: number; cachedInputPerMillion?: number; cacheWritePerMillion?: number };
  [field: string]: unknown;
}

/** One admin-stored catalog entry of GET /api/catalog/entries. */
export interface CatalogEntry {
  modelId: string;
  fields: CatalogFields;
  /** Unix milliseconds */
  updatedAt: number;
}
