import { z } from 'zod';
import { modelField, samplingFields } from './common-fields.js';

const tokenIds = z.array(z.number().int().min(0));

/** `POST /v1/completions` (legacy); unknown fields pass through to the vendor unchanged. */
export const completionRequestSchema = z.looseObject({
  model: modelField,
  prompt: z.union([z.string(), z.array(z.string()).min(1), tokenIds.min(1), z.array(tokenIds.min(1)).min(1)]),
  ...samplingFields,
  suffix: z.string().nullish(),
  echo: z.boolean().nullish(),
  best_of: z.number().int().min(0).max(20).nullish(),
  logprobs: z.number().int().min(0).max(5).nullish(),
});

/** A validated legacy completion request. */
export type CompletionRequest = z.output<typeof completionRequestSchema>;
