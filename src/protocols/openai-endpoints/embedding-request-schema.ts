import { z } from 'zod';
import { integerField, modelField, userField } from '../shared/common-fields.js';
import { fieldNamesOf, type EndpointFieldRules } from '../shared/endpoint-field-rules.js';

/** Most inputs (strings or token arrays) one request may carry, and most tokens in one token array (the description's limits). */
const maxInputs = 2048;
const maxTokensPerInput = 8192;
/** Most tokens summed over all token-array inputs of one request. */
const maxTotalTokens = 300_000;

const tokenIds = z.array(integerField().min(0)).min(1).max(maxTokensPerInput);
const nonEmptyText = z.string().min(1, 'must not be empty');

/** Every field of `CreateEmbeddingRequest` in the official API description, with its type and range. */
const embeddingFields = {
  model: modelField,
  input: z.union([
    nonEmptyText,
    z.array(nonEmptyText).min(1).max(maxInputs),
    z.array(integerField().min(0)).min(1).max(maxInputs),
    z
      .array(tokenIds)
      .min(1)
      .max(maxInputs)
      .refine(
        (inputs) => inputs.reduce((total, input) => total + input.length, 0) <= maxTotalTokens,
        `must hold at most ${maxTotalTokens} tokens in all`,
      ),
  ]),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: integerField().min(1).optional(),
  user: userField,
};

/** `POST /v1/embeddings`; the official SDK asks for base64 unless told otherwise. */
export const embeddingRequestSchema = z.looseObject(embeddingFields);

/** A validated embedding request. */
export type EmbeddingRequest = z.output<typeof embeddingRequestSchema>;

/** What embeddings may forward: the description's fields only. */
export const embeddingFieldRules: EndpointFieldRules = {
  officialFields: fieldNamesOf(embeddingFields),
  premiumFields: {},
  optInFields: [],
  acceptsVendorExtras: false,
};
