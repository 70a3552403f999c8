import { z } from 'zod';

/** `model`: required, non-empty. */
export const modelField = z.string().min(1, 'must not be empty');

/**
 * An integer within JavaScript's safe range: zod's `int()` refuses fractions, `1e308` and anything beyond
 * ±(2^53 − 1), so no request integer can lose digits on its way to the vendor or into a hold.
 */
export function integerField(): z.ZodNumber {
  return z.number().int();
}

/** `temperature`: 0 to 2 (OpenAI's range). */
export const temperatureField = z.number().min(0).max(2).nullish();

/** `top_p`: 0 to 1. */
export const topPField = z.number().min(0).max(1).nullish();

/** `presence_penalty` and `frequency_penalty`: -2 to 2. */
export const penaltyField = z.number().min(-2).max(2).nullish();

/** `n`: 1 to 128 choices. */
export const choiceCountField = integerField().min(1).max(128).nullish();

/** `seed`: any safe integer (the description allows int64; larger values cannot be represented exactly in JSON numbers here). */
export const seedField = integerField().nullish();

/** `stop`: a string or 1 to 4 strings. */
export const stopField = z.union([z.string(), z.array(z.string()).min(1).max(4)]).nullish();

/** `stream`. */
export const streamField = z.boolean().nullish();

/** `stream_options`: only the usage switch and the obfuscation switch exist. */
export const streamOptionsField = z
  .looseObject({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() })
  .nullish();

/** `logit_bias`: token ids (integers written as strings) to a bias from -100 to 100. */
export const logitBiasField = z
  .record(
    z.string().regex(/^(0|[1-9]\d{0,9})$/, 'keys must be token ids (integers as strings)'),
    integerField().min(-100).max(100),
  )
  .nullish();

/** `user`: the end user's identifier (deprecated by OpenAI in favour of `safety_identifier` and `prompt_cache_key`). */
export const userField = z.string().optional();

/** Fields every text-generation endpoint shares (chat and legacy completions), with the description's ranges. */
export const samplingFields = {
  temperature: temperatureField,
  top_p: topPField,
  n: choiceCountField,
  presence_penalty: penaltyField,
  frequency_penalty: penaltyField,
  seed: seedField,
  stop: stopField,
  stream: streamField,
  stream_options: streamOptionsField,
  logit_bias: logitBiasField,
  user: userField,
};
