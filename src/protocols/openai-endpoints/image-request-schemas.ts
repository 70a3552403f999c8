import { z } from 'zod';
import { integerField, userField } from '../shared/common-fields.js';
import { fieldNamesOf, type EndpointFieldRules } from '../shared/endpoint-field-rules.js';
import { formBoolean, formInteger } from '../shared/form-field-types.js';

/** OpenAI's default model for `POST /v1/images/generations` when a request names none (the description's default). */
export const defaultImageModel = 'dall-e-2';
/** OpenAI's default model for `POST /v1/images/edits` when a request names none (the description's default). */
export const defaultImageEditModel = 'gpt-image-1.5';

/** The longest prompt any image model takes (GPT image models); shorter per-model limits are in checkImageModelOptions. */
const maxPromptLength = 32_000;

const sizeField = z.string().regex(/^(\d{1,5}x\d{1,5}|auto)$/, "must look like '<width>x<height>' or 'auto'");
const promptField = z.string().min(1, 'must not be empty').max(maxPromptLength);
const responseFormatField = z.enum(['url', 'b64_json']);
const outputFormatField = z.enum(['png', 'jpeg', 'webp']);
const backgroundField = z.enum(['transparent', 'opaque', 'auto']);
const imageCountRange = integerField().min(1).max(10);
const compressionRange = integerField().min(0).max(100);
const partialImagesRange = integerField().min(0).max(3);
/** Streamed image answers (partial images over SSE) are not relayed: the gateway bills from the final JSON answer. */
const noStreaming = z.literal(false, { error: 'streamed image answers are not supported by this gateway' });

function modelWithDefault(defaultModel: string) {
  return z
    .string()
    .min(1, 'must not be empty')
    .nullish()
    .transform((model) => model ?? defaultModel);
}

/** Every field of `CreateImageRequest` in the official API description, with its type and range. */
const imageGenerationFields = {
  model: modelWithDefault(defaultImageModel),
  prompt: promptField,
  n: imageCountRange.nullish(),
  size: sizeField.nullish(),
  quality: z.enum(['standard', 'hd', 'low', 'medium', 'high', 'auto']).nullish(),
  response_format: responseFormatField.nullish(),
  output_format: outputFormatField.nullish(),
  output_compression: compressionRange.nullish(),
  stream: noStreaming.nullish(),
  partial_images: partialImagesRange.nullish(),
  moderation: z.enum(['low', 'auto']).nullish(),
  background: backgroundField.nullish(),
  style: z.enum(['vivid', 'natural']).nullish(),
  user: userField,
};

/** `POST /v1/images/generations`; without `model`, OpenAI's default `dall-e-2`. */
export const imageGenerationRequestSchema = z.looseObject(imageGenerationFields);

/** A validated image generation request. */
export type ImageGenerationRequest = z.output<typeof imageGenerationRequestSchema>;

/** What image generations may forward: the description's fields only; none changes the per-image price. */
export const imageGenerationFieldRules: EndpointFieldRules = {
  officialFields: fieldNamesOf(imageGenerationFields),
  premiumFields: {},
  optInFields: [],
  acceptsVendorExtras: false,
};

/** The text fields of `CreateImageEditRequest` (multipart, so numbers and booleans arrive as text). */
const imageEditTextFields = {
  model: modelWithDefault(defaultImageEditModel),
  prompt: promptField,
  n: formInteger(imageCountRange).optional(),
  size: sizeField.optional(),
  quality: z.enum(['standard', 'low', 'medium', 'high', 'auto']).optional(),
  response_format: responseFormatField.optional(),
  output_format: outputFormatField.optional(),
  output_compression: formInteger(compressionRange).optional(),
  background: backgroundField.optional(),
  input_fidelity: z.enum(['high', 'low']).optional(),
  stream: formBoolean.pipe(noStreaming).optional(),
  partial_images: formInteger(partialImagesRange).optional(),
  user: userField,
};

/** Text fields of `POST /v1/images/edits` (files are checked separately). */
export const imageEditFieldsSchema = z.looseObject(imageEditTextFields);

/** The validated text fields of an image edit. */
export type ImageEditFields = z.output<typeof imageEditFieldsSchema>;

/** The file fields of an image edit: one or more images (`image` or `image[]`, at most 16) and an optional mask. */
export const imageEditFileFields: ReadonlySet<string> = new Set(['image', 'image[]', 'mask']);

/** Most images one edit may upload (the description's limit). */
export const maxImageEditImages = 16;

/** What image edits may forward: the description's fields; high input fidelity bills more image input tokens. */
export const imageEditFieldRules: EndpointFieldRules = {
  officialFields: fieldNamesOf(imageEditTextFields),
  premiumFields: { input_fidelity: (value) => value === 'high' },
  optInFields: [],
  acceptsVendorExtras: false,
};
