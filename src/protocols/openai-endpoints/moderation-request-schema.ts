import { z } from 'zod';
import { fieldNamesOf, type EndpointFieldRules } from '../shared/endpoint-field-rules.js';

/** The model OpenAI classifies with when a moderation request names none. */
export const defaultModerationModel = 'omni-moderation-latest';

/** Most inputs one moderation request may carry (OpenAI refuses larger batches). */
const maxModerationInputs = 2048;

/** One multi-modal input part: a text, or an image by URL (an https address or a `data:` URL). */
const moderationInputPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string().min(1, 'must not be empty') }) }),
]);

/** Every field of `CreateModerationRequest` in the official API description, with its type. */
const moderationFields = {
  input: z.union([
    z.string(),
    z.array(z.string()).min(1).max(maxModerationInputs),
    z.array(moderationInputPart).min(1).max(maxModerationInputs),
  ]),
  model: z.string().min(1, 'must not be empty').optional(),
};

/** `POST /v1/moderations`. */
export const moderationRequestSchema = z.looseObject(moderationFields);

/** A validated moderation request. */
export type ModerationRequest = z.output<typeof moderationRequestSchema>;

/** What moderations may forward: the description's fields only. */
export const moderationFieldRules: EndpointFieldRules = {
  officialFields: fieldNamesOf(moderationFields),
  premiumFields: {},
  optInFields: [],
  acceptsVendorExtras: false,
};
