import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { CatalogModel } from './catalog-model.js';

const priceSchema = z.number().int().min(0);

/** The catalog fields an operator may set for one model; every field optional. */
export const modelCatalogFieldsSchema = z.strictObject({
  ownedBy: z.string().min(1).optional(),
  kind: z.enum(['chat', 'completion', 'embedding', 'image', 'audio', 'video', 'speech', 'moderation']).optional(),
  created: z.number().int().min(0).optional(),
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  reasoning: z.boolean().optional(),
  inputModalities: z
    .array(z.enum(['text', 'image', 'audio']))
    .min(1)
    .optional(),
  imageSizes: z.array(z.string().regex(/^(\d+x\d+|auto)$/)).optional(),
  supportsImageEdits: z.boolean().optional(),
  aliases: z.array(z.string().min(1)).optional(),
  defaultPrices: z
    .strictObject({
      inputPerMillion: priceSchema,
      cachedInputPerMillion: priceSchema.optional(),
      cacheWritePerMillion: priceSchema.optional(),
      cacheWriteOneHourPerMillion: priceSchema.optional(),
      outputPerMillion: priceSchema,
      perImage: z.record(z.string(), priceSchema).optional(),
      perAudioMinute: priceSchema.optional(),
      perVideoSecond: priceSchema.optional(),
    })
    .optional(),
  maxImagesPerRequest: z.number().int().positive().optional(),
  videoDurations: z.array(z.number().int().positive()).optional(),
  videoUpstreamModelId: z.string().min(1).optional(),
  videoOrientation: z.enum(['portrait', 'landscape']).optional(),
});

/** One entry of an operator's catalog file: a model id and the fields it sets. */
const catalogFileEntrySchema = modelCatalogFieldsSchema.extend({ id: z.string().min(1) });

/** An operator's change to one model: the id and the catalog fields it sets. */
export type ModelCatalogEntry = z.infer<typeof catalogFileEntrySchema>;

/**
 * Applies an operator's catalog file (`GATEWAY_MODEL_CATALOG_FILE`: a JSON array of entries) to the built-in
 * catalog (see applyModelCatalogEntries). A malformed file stops the start with a message naming the entry and field.
 */
export function applyModelCatalogOverrides(
  builtIn: readonly CatalogModel[],
  filePath: string | undefined,
): CatalogModel[] {
  if (!filePath) return [...builtIn];
  const parsed = z.array(catalogFileEntrySchema).safeParse(JSON.parse(readFileSync(filePath, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Model catalog file ${filePath}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is invalid'}`);
  }
  try {
    return applyModelCatalogEntries(builtIn, parsed.data);
  } catch (error) {
    throw new Error(`Model catalog file ${filePath}: ${(error as Error).message}`);
  }
}

/**
 * Applies operators' entries in order: an entry whose id exists changes only the fields it names; a new id adds a
 * model, which then needs `ownedBy` and `kind` (else this throws, naming the model).
 */
export function applyModelCatalogEntries(
  base: readonly CatalogModel[],
  entries: readonly ModelCatalogEntry[],
): CatalogModel[] {
  const byId = new Map(base.map((model) => [model.id, model]));
  for (const entry of entries) {
    const existing = byId.get(entry.id);
    if (existing) {
      byId.set(entry.id, { ...existing, ...definedFields(entry) });
      continue;
    }
    if (!entry.ownedBy || !entry.kind) throw new Error(`new model ${entry.id} needs ownedBy and kind`);
    byId.set(entry.id, {
      inputModalities: ['text'],
      created: 0,
      ...definedFields(entry),
      id: entry.id,
      ownedBy: entry.ownedBy,
      kind: entry.kind,
    });
  }
  return [...byId.values()];
}

function definedFields<Value extends object>(value: Value): Partial<Value> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<Value>;
}
