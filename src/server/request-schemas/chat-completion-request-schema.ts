import { z } from 'zod';
import { modelField, samplingFields } from './common-fields.js';

const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const imagePart = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
});
const audioPart = z.looseObject({ type: z.literal('input_audio'), input_audio: z.looseObject({ data: z.string(), format: z.string() }) });
const filePart = z.looseObject({ type: z.literal('file'), file: z.looseObject({}) });
const refusalPart = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

const userContent = z.union([z.string(), z.array(z.discriminatedUnion('type', [textPart, imagePart, audioPart, filePart])).min(1)]);
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
    tool_calls: z.array(toolCall).optional(),
    name: z.string().optional(),
  }),
  z.looseObject({ role: z.literal('tool'), content: textContent, tool_call_id: z.string().min(1) }),
  z.looseObject({ role: z.literal('function'), content: z.string().nullable(), name: z.string() }),
]);

const functionTool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, underscores or dashes'),
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
  z.looseObject({ type: z.literal('json_schema'), json_schema: z.looseObject({ name: z.string().min(1) }) }),
]);

/** `POST /v1/chat/completions`; unknown fields pass through to the vendor unchanged. */
export const chatCompletionRequestSchema = z.looseObject({
  model: modelField,
  messages: z.array(message).min(1, 'must contain at least one message'),
  ...samplingFields,
  max_completion_tokens: z.number().int().min(1).nullish(),
  tools: z.array(functionTool).optional(),
  tool_choice: toolChoice.optional(),
  parallel_tool_calls: z.boolean().optional(),
  response_format: responseFormat.optional(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  logit_bias: z.record(z.string(), z.number().min(-100).max(100)).nullish(),
});

/** A validated chat completion request. */
export type ChatCompletionRequest = z.output<typeof chatCompletionRequestSchema>;
