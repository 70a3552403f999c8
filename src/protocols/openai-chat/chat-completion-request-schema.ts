import { z } from 'zod';
import { premiumChatFields } from '../../core/premium-chat-fields.js';
import { integerField, modelField, samplingFields } from '../shared/common-fields.js';
import { fieldNamesOf, type EndpointFieldRules } from '../shared/endpoint-field-rules.js';
import { createSparseLooseObject, type CrossFieldIssue } from '../shared/sparse-loose-object.js';

const functionName = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, underscores or dashes');

const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const imagePart = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
});
const audioPart = z.looseObject({
  type: z.literal('input_audio'),
  input_audio: z.looseObject({ data: z.string(), format: z.enum(['wav', 'mp3']) }),
});
const filePart = z.looseObject({
  type: z.literal('file'),
  file: z.looseObject({
    filename: z.string().optional(),
    file_data: z.string().optional(),
    file_id: z.string().optional(),
  }),
});
const refusalPart = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

const userContent = z.union([
  z.string(),
  z.array(z.discriminatedUnion('type', [textPart, imagePart, audioPart, filePart])).min(1),
]);
const textContent = z.union([z.string(), z.array(textPart).min(1)]);

const toolCall = z.looseObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});

const message = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: textContent, name: z.string().optional() }),
  z.looseObject({ role: z.literal('developer'), content: textContent, name: z.string().optional() }),
  z.looseObject({ role: z.literal('user'), content: userContent, name: z.string().optional() }),
  z.looseObject({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.array(z.discriminatedUnion('type', [textPart, refusalPart]))]).nullish(),
    refusal: z.string().nullish(),
    tool_calls: z.array(toolCall).optional(),
    name: z.string().optional(),
    audio: z.looseObject({ id: z.string() }).nullish(),
    function_call: z.looseObject({ name: z.string(), arguments: z.string() }).nullish(),
  }),
  z.looseObject({ role: z.literal('tool'), content: textContent, tool_call_id: z.string().min(1) }),
  z.looseObject({ role: z.literal('function'), content: z.string().nullable(), name: z.string() }),
]);

const functionTool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: functionName,
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string().min(1) }) }),
]);

const responseFormat = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: functionName,
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

/** `metadata`: up to 16 pairs, keys up to 64 characters, values up to 512. */
const metadataField = z
  .record(z.string().max(64), z.string().max(512))
  .refine((pairs) => Object.keys(pairs).length <= 16, 'must have at most 16 keys')
  .nullish();

const legacyFunction = z.looseObject({
  name: functionName,
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Every field of `CreateChatCompletionRequest` in the official API description, with its type and range; the
 * forwarded-field allow-list is these names (see chatCompletionFieldRules).
 */
const chatCompletionFields = {
  model: modelField,
  messages: z.array(message).min(1, 'must contain at least one message'),
  ...samplingFields,
  max_tokens: integerField().min(1).nullish(),
  max_completion_tokens: integerField().min(1).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: integerField().min(0).max(20).nullish(),
  tools: z.array(functionTool).optional(),
  tool_choice: toolChoice.optional(),
  parallel_tool_calls: z.boolean().optional(),
  function_call: z.union([z.enum(['none', 'auto']), z.looseObject({ name: z.string().min(1) })]).optional(),
  functions: z.array(legacyFunction).min(1).max(128).optional(),
  response_format: responseFormat.optional(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
  verbosity: z.enum(['low', 'medium', 'high']).nullish(),
  modalities: z.array(z.enum(['text', 'audio'])).nullish(),
  audio: z
    .looseObject({
      voice: z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })]),
      format: z.enum(['wav', 'aac', 'mp3', 'flac', 'opus', 'pcm16']),
    })
    .nullish(),
  prediction: z
    .looseObject({ type: z.literal('content'), content: z.union([z.string(), z.array(textPart).min(1)]) })
    .nullish(),
  web_search_options: z
    .looseObject({
      user_location: z
        .looseObject({
          type: z.literal('approximate'),
          approximate: z.looseObject({
            country: z.string().optional(),
            region: z.string().optional(),
            city: z.string().optional(),
            timezone: z.string().optional(),
          }),
        })
        .nullish(),
      search_context_size: z.enum(['low', 'medium', 'high']).optional(),
    })
    .nullish(),
  service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority', 'fast']).nullish(),
  store: z.boolean().nullish(),
  metadata: metadataField,
  moderation: z.looseObject({ model: z.string().min(1), policy: z.unknown().optional() }).nullish(),
  safety_identifier: z.string().max(64).nullish(),
  prompt_cache_key: z.string().nullish(),
  prompt_cache_retention: z.enum(['in_memory', '24h']).nullish(),
  prompt_cache_options: z
    .looseObject({ ttl: z.enum(['30m']).optional(), mode: z.enum(['implicit', 'explicit']).optional() })
    .nullish(),
};

/**
 * `POST /v1/chat/completions`: every field the description defines, checked (optional ones only when sent); other
 * fields are judged by the forwarded-field policy.
 */
export const chatCompletionRequestSchema = createSparseLooseObject(chatCompletionFields, (request) => {
  const issues: CrossFieldIssue[] = [];
  if (request.stream_options !== undefined && request.stream_options !== null && request.stream !== true) {
    issues.push({ path: ['stream_options'], message: "is only allowed when 'stream' is true" });
  }
  if (request.top_logprobs !== undefined && request.top_logprobs !== null && request.logprobs !== true) {
    issues.push({ path: ['top_logprobs'], message: "requires 'logprobs' to be true" });
  }
  return issues;
});

/** A validated chat completion request. */
export type ChatCompletionRequest = z.output<typeof chatCompletionRequestSchema.full>;

/** What chat completions may forward: the description's fields; `store` and `metadata` only on opt-in. */
export const chatCompletionFieldRules: EndpointFieldRules = {
  officialFields: fieldNamesOf(chatCompletionFields),
  premiumFields: premiumChatFields,
  optInFields: ['store', 'metadata'],
  acceptsVendorExtras: true,
};
