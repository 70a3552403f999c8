import { z } from 'zod';

/** OpenAI's default image model when a request names none. */
export const defaultImageModel = 'dall-e-2';

const sizeField = z.string().regex(/^(\d+x\d+|auto)$/, "must look like '<width>x<height>'");
const responseFormatField = z.enum(['url', 'b64_json']);
const countField = z.coerce.number().int().min(1).max(10);

/** `POST /v1/images/generations`. */
export const imageGenerationRequestSchema = z.looseObject({
  model: z.string().min(1).default(defaultImageModel),
  prompt: z.string().min(1, 'must not be empty'),
  n: countField.nullish(),
  size: sizeField.nullish(),
  quality: z.enum(['standard', 'hd', 'low', 'medium', 'high', 'auto']).nullish(),
  response_format: responseFormatField.nullish(),
  style: z.enum(['vivid', 'natural']).nullish(),
  user: z.string().optional(),
});

/** Text fields of `POST /v1/images/edits` (files are checked separately). */
export const imageEditFieldsSchema = z.looseObject({
  model: z.string().min(1).default(defaultImageModel),
  prompt: z.string().min(1, 'must not be empty'),
  n: countField.optional(),
  size: sizeField.optional(),
  quality: z.enum(['standard', 'hd', 'low', 'medium', 'high', 'auto']).optional(),
  response_format: responseFormatField.optional(),
  user: z.string().optional(),
});
