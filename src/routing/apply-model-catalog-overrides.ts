import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { CatalogModel } from './catalog-model.js';

const priceSchema = z.number().int().min(0);

const overrideSchema = z.strictObject({
  id: z.string().min(1),
  ownedBy: z.string().min(1).optional(),
  kind: z.enum(['chat', 'completion', 'embedding', 'image', 'audio', 'video']).optional(),
  created: z.number().int().min(0).optional(),
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  inputModalities: z.array(z.enum(['text', 'image', 'audio'])).min(1).optional(),
  imageSizes: z.array(z.string().regex(/^(\d+x\d+|auto)$/)).optional(),
  supportsImageEdits: z.boolean().optional(),
  aliases: z.array(z.string().min(1)).optional(),
  defaultPrices: z
    .strictObject({
      inputPerMillion: priceSchema,
      cachedInputPerMillion: priceSchema.optional(),
      cacheWritePerMillion: priceSchema.optional(),
      outputPerMillion: priceSchema,
      perImage: z.record(z.string(), priceSchema).optional(),
      perAudioMinute: priceSchema.optional(),
      perVideoSecond: priceSchema.optional(),
    })
    .optional(),
  maxImagesPerRequest: z.number().int().positive().optional(),
  videoDurations: z.array(z.number().int().positive()).optional(),
});

/**
 * Applies an operator's catalog file (`GATEWAY_MODEL_CATALOG_FILE`: a JSON array of entries) to the built-in
 * catalog: an entry whose id exists changes only the fields it names; a new id adds a model, which then needs
 * `ownedBy` and `kind`. A malformed file stops the start with a message naming the entry and field.
 */
export function applyModelCatalogOverrides(builtIn: readonly CatalogModel[], filePath: string | undefined): CatalogModel[] {
  if (!filePath) return [...builtIn];
  const parsed = z.array(overrideSchema).safeParse(JSON.parse(readFileSync(filePath, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Model catalog file ${filePath}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is invalid'}`);
  }
  const byId = new Map(builtIn.map((model) => [model.id, model]));
  for (const override of parsed.data) {
    const existing = byId.get(override.id);
    if (existing) {
      byId.set(override.id, { ...existing, ...definedFields(override) });
      continue;
    }
    if (!override.ownedBy || !override.kind) throw new Error(`Model catalog file ${filePath}: new model ${override.id} needs ownedBy and kind`);
    byId.set(override.id, { inputModalities: ['text'], created: 0, ...definedFields(override), id: override.id, ownedBy: override.ownedBy, kind: override.kind });
  }
  return [...byId.values()];
}

function definedFields<Value extends object>(value: Value): Partial<Value> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<Value>;
}
