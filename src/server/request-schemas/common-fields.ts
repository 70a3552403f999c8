import { z } from 'zod';

/** `model`: required, non-empty. */
export const modelField = z.string().min(1, 'must not be empty');

/** Sampling parameters shared by chat and legacy completions, with the spec's ranges (section 8). */
export const samplingFields = {
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  n: z.number().int().min(1).max(128).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  seed: z.number().int().nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  user: z.string().optional(),
};
