import { z } from 'zod';
import { modelField } from './common-fields.js';

const tokenIds = z.array(z.number().int().min(0)).min(1);

/** `POST /v1/embeddings`; the official SDK asks for base64 unless told otherwise. */
export const embeddingRequestSchema = z.looseObject({
  model: modelField,
  input: z.union([z.string().min(1, 'must not be empty'), z.array(z.string().min(1, 'must not be empty')).min(1).max(2048), tokenIds, z.array(tokenIds).min(1).max(2048)]),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.number().int().min(1).optional(),
  user: z.string().optional(),
});

/** A validated embedding request. */
export type EmbeddingRequest = z.output<typeof embeddingRequestSchema>;
