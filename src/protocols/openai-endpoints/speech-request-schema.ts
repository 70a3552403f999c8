import { z } from 'zod';
import { speechAudioFormats } from '../../core/speech-request.js';
import { modelField } from '../shared/common-fields.js';
import { fieldNamesOf, type EndpointFieldRules } from '../shared/endpoint-field-rules.js';

/** Most characters of `input` and of `instructions` (the official API description's `maxLength`). */
export const maxSpeechCharacters = 4096;

/** Every field of `CreateSpeechRequest` in the official API description, with its type and range. */
const speechFields = {
  model: modelField,
  input: z.string().min(1, 'must not be empty').max(maxSpeechCharacters),
  instructions: z.string().max(maxSpeechCharacters).optional(),
  // A built-in voice name, or a custom voice by its id (`{ "id": "voice_1234" }`).
  voice: z.union([z.string().min(1, 'must not be empty'), z.strictObject({ id: z.string().min(1) })]),
  response_format: z.enum(speechAudioFormats).optional(),
  speed: z.number().min(0.25).max(4).optional(),
  stream_format: z.enum(['sse', 'audio']).optional(),
};

/**
 * `POST /v1/audio/speech`. The description says `additionalProperties: false`: a field outside it is refused by the
 * forwarded-field policy (`Unrecognized request argument supplied`, naming it), as on the other endpoints.
 */
export const speechRequestSchema = z.looseObject(speechFields);

/** A validated speech request. */
export type SpeechRequest = z.output<typeof speechRequestSchema>;

/** What speech may forward: the description's fields only. */
export const speechFieldRules: EndpointFieldRules = {
  officialFields: fieldNamesOf(speechFields),
  premiumFields: {},
  optInFields: [],
  acceptsVendorExtras: false,
};
