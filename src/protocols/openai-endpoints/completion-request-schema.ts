import { z } from 'zod';
import { integerField, modelField, samplingFields } from '../shared/common-fields.js';
import { fieldNamesOf, type EndpointFieldRules } from '../shared/endpoint-field-rules.js';

const tokenIds = z.array(integerField().min(0));

/** Every field of `CreateCompletionRequest` in the official API description, with its type and range. */
const completionFields = {
  model: modelField,
  prompt: z.union([z.string(), z.array(z.string()).min(1), tokenIds.min(1), z.array(tokenIds.min(1)).min(1)]),
  ...samplingFields,
  max_tokens: integerField().min(0).nullish(),
  suffix: z.string().nullish(),
  echo: z.boolean().nullish(),
  best_of: integerField().min(0).max(20).nullish(),
  logprobs: integerField().min(0).max(5).nullish(),
};

/** `POST /v1/completions` (legacy): every field the description defines, checked; `best_of` may not be below `n`. */
export const completionRequestSchema = z.looseObject(completionFields).superRefine((request, context) => {
  if (request.stream_options !== undefined && request.stream_options !== null && request.stream !== true) {
    context.addIssue({ code: 'custom', path: ['stream_options'], message: "is only allowed when 'stream' is true" });
  }
  const choices = request.n ?? 1;
  if (typeof request.best_of === 'number' && request.best_of > 0 && request.best_of < choices) {
    context.addIssue({ code: 'custom', path: ['best_of'], message: "must be greater than or equal to 'n'" });
  }
});

/** A validated legacy completion request. */
export type CompletionRequest = z.output<typeof completionRequestSchema>;

/** What legacy completions may forward: the description's fields (none of them changes the price beyond the usage the vendor reports). */
export const completionFieldRules: EndpointFieldRules = {
  officialFields: fieldNamesOf(completionFields),
  premiumFields: {},
  optInFields: [],
  acceptsVendorExtras: true,
};
