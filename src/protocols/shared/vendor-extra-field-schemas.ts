import { z } from 'zod';
import { integerField } from './common-fields.js';

/**
 * Every field beyond OpenAI's API description that some vendor preset accepts (src/routing/vendor-presets.ts), with
 * its type and range: the sampling knobs of vLLM, Ollama, LM Studio, Together and OpenRouter, OpenRouter's
 * price-changing routing fields, and Azure's `data_sources`. A preset may list only names defined here.
 */
export const vendorExtraFieldSchemas = {
  top_k: integerField().min(-1).nullish(),
  min_p: z.number().min(0).max(1).nullish(),
  top_a: z.number().min(0).max(1).nullish(),
  repetition_penalty: z.number().gt(0).max(2).nullish(),
  models: z.array(z.string().min(1)).min(1).max(32),
  route: z.enum(['fallback']),
  provider: z.record(z.string(), z.unknown()),
  plugins: z.array(z.looseObject({ id: z.string().min(1) })),
  data_sources: z.array(z.looseObject({ type: z.string().min(1) })).min(1),
};

/** Checks the vendor extra fields a request carries (other fields pass through untouched). */
export const vendorExtraFieldsSchema = z.looseObject(
  Object.fromEntries(Object.entries(vendorExtraFieldSchemas).map(([name, schema]) => [name, schema.optional()])),
);
