import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import type { MultipartForm } from '../../core/multipart-form.js';
import { integerField } from '../shared/common-fields.js';
import { formBoolean, formInteger, formNumber } from '../shared/form-field-types.js';
import { parseRequestBody } from '../shared/parse-request-body.js';
import { unrecognizedArgumentError } from '../shared/unrecognized-argument-error.js';

/** Streamed transcriptions (SSE) are not relayed: the gateway bills from the final answer. */
const noStreaming = z.literal(false, { error: 'streamed transcriptions are not supported by this gateway' });

/** `chunking_strategy` as the SDKs send an object in a form: `chunking_strategy[type]`, `chunking_strategy[threshold]`, ... */
const voiceActivityFields = {
  type: z.literal('server_vad'),
  prefix_padding_ms: formInteger(integerField().min(0)).optional(),
  silence_duration_ms: formInteger(integerField().min(0)).optional(),
  threshold: formNumber(z.number().min(0).max(1)).optional(),
};
const voiceActivitySchema = z.strictObject(voiceActivityFields);

/** The single-valued text fields of `CreateTranscriptionRequest` in the official API description. */
const transcriptionTextFields = {
  model: z.string().min(1, 'must not be empty'),
  language: z
    .string()
    .regex(/^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{2,8})*$/, 'must be an ISO-639-1 language code such as en')
    .optional(),
  prompt: z.string().optional(),
  response_format: z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json']).optional(),
  temperature: formNumber(z.number().min(0).max(1)).optional(),
  stream: formBoolean.pipe(noStreaming).optional(),
  chunking_strategy: z.union([z.literal('auto'), voiceActivitySchema]).optional(),
};

/** The list fields of `CreateTranscriptionRequest`, sent as repeated `name[]` parts. */
const transcriptionListFields = {
  include: z.array(z.enum(['logprobs'])).optional(),
  timestamp_granularities: z
    .array(z.enum(['word', 'segment']))
    .max(2)
    .optional(),
  languages: z.array(z.string().min(1)).min(1).optional(),
  keywords: z.array(z.string()).optional(),
  known_speaker_names: z.array(z.string()).max(4).optional(),
  known_speaker_references: z.array(z.string()).max(4).optional(),
};

const transcriptionFieldsSchema = z
  .looseObject({ ...transcriptionTextFields, ...transcriptionListFields })
  .superRefine((fields, context) => {
    if (fields.timestamp_granularities && fields.response_format !== 'verbose_json') {
      context.addIssue({
        code: 'custom',
        path: ['timestamp_granularities'],
        message: "requires 'response_format' verbose_json",
      });
    }
    if (fields.include && (fields.response_format ?? 'json') !== 'json') {
      context.addIssue({ code: 'custom', path: ['include'], message: "requires 'response_format' json" });
    }
  });

/** The validated fields of a transcription upload. */
export type TranscriptionFields = z.output<typeof transcriptionFieldsSchema>;

/** Every field name the description defines for transcriptions: the allow-list of the form. */
export const transcriptionFieldNames: ReadonlySet<string> = new Set([
  ...Object.keys(transcriptionTextFields),
  ...Object.keys(transcriptionListFields),
  'file',
]);

const chunkingStrategyPart = /^chunking_strategy\[([a-z_]+)\]$/;

/**
 * Validates the text fields, repeated fields and file fields of a `POST /v1/audio/transcriptions` form against the
 * official API description: an unknown field is refused (`Unrecognized request argument supplied`), every known one
 * is checked for type and range, with a 400 naming it. The file itself is checked by the route.
 */
export function parseTranscriptionForm(form: MultipartForm): TranscriptionFields {
  const fields: Record<string, unknown> = {};
  const chunkingStrategy: Record<string, string> = {};
  for (const [name, value] of Object.entries(form.fields)) {
    const part = chunkingStrategyPart.exec(name);
    if (part?.[1]) chunkingStrategy[part[1]] = value;
    else if (name in transcriptionListFields) fields[name] = [value];
    else if (name in transcriptionTextFields) fields[name] = value;
    else throw unrecognizedArgumentError(name);
  }
  for (const [name, value] of form.repeatedFields) {
    const listName = name.slice(0, -2);
    if (!(listName in transcriptionListFields)) throw unrecognizedArgumentError(name);
    const list = fields[listName];
    if (Array.isArray(list)) list.push(value);
    else fields[listName] = [value];
  }
  for (const file of form.files) {
    if (file.fieldName !== 'file') throw unrecognizedArgumentError(file.fieldName);
  }
  if (form.files.filter((file) => file.fieldName === 'file').length > 1) {
    throw new GatewayError('invalid_request_error', "Invalid value for 'file': send one audio file per request.", {
      param: 'file',
    });
  }
  if (Object.keys(chunkingStrategy).length > 0) {
    if (fields.chunking_strategy !== undefined)
      throw new GatewayError('invalid_request_error', "Invalid value for 'chunking_strategy': give it once.", {
        param: 'chunking_strategy',
      });
    fields.chunking_strategy = chunkingStrategy;
  }
  return parseRequestBody(transcriptionFieldsSchema, fields);
}
