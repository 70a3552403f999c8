import { z } from 'zod';
import { carryingCallIdMaxLength, isCarryingCallId, plainCallIdMaxLength } from './responses-call-id.js';

/** A function or schema name as OpenAI allows it. */
const toolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, underscores or dashes');

/** OpenAI's 64-character cap, except for the gateway's own ids that carry a tool call's artefact (see encodeResponsesCallId). */
const callIdSchema = z
  .string()
  .min(1)
  .max(carryingCallIdMaxLength)
  .refine((callId) => callId.length <= plainCallIdMaxLength || isCarryingCallId(callId), {
    message: `must be at most ${plainCallIdMaxLength} characters`,
  });

const inputText = z.looseObject({ type: z.literal('input_text'), text: z.string() });
const inputImage = z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string().min(1).nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['auto', 'low', 'high', 'original']).optional(),
});
const inputFile = z.looseObject({
  type: z.literal('input_file'),
  file_id: z.string().nullish(),
  file_data: z.string().min(1).optional(),
  file_url: z.string().min(1).optional(),
  filename: z.string().optional(),
});
const outputText = z.looseObject({ type: z.literal('output_text'), text: z.string() });
const refusal = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

/** Any content part a message item may carry; which role may use which is checked when mapping. */
const messageContentPart = z.discriminatedUnion('type', [inputText, inputImage, inputFile, outputText, refusal]);

/** A content part of the responses input item types. */
export type ResponsesContentPart = z.output<typeof messageContentPart>;

const messageItem = z.looseObject({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(messageContentPart)]),
  id: z.string().optional(),
  status: z.string().optional(),
});

const functionCallItem = z.looseObject({
  type: z.literal('function_call'),
  call_id: callIdSchema,
  name: z.string().min(1),
  /** the `namespace` tool the called function belongs to (Codex's `multi_agent_v1`, ...) */
  namespace: z.string().min(1).nullish(),
  arguments: z.string(),
  id: z.string().optional(),
  status: z.string().optional(),
});

const functionCallOutputItem = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: callIdSchema,
  output: z.union([z.string(), z.array(z.discriminatedUnion('type', [inputText, inputImage, inputFile]))]),
  id: z.string().nullish(),
  status: z.string().nullish(),
});

const reasoningItem = z.looseObject({
  type: z.literal('reasoning'),
  id: z.string().optional(),
  summary: z.array(z.looseObject({ type: z.literal('summary_text'), text: z.string() })),
  content: z.array(z.looseObject({ type: z.literal('reasoning_text'), text: z.string() })).nullish(),
  encrypted_content: z.string().nullish(),
  status: z.string().optional(),
});

const customToolCallItem = z.looseObject({
  type: z.literal('custom_tool_call'),
  call_id: callIdSchema,
  name: z.string().min(1),
  input: z.string(),
  id: z.string().optional(),
  status: z.string().nullish(),
});

const customToolCallOutputItem = functionCallOutputItem.extend({ type: z.literal('custom_tool_call_output') });

/** A client-run tool search the model made (`call_id` is null only for OpenAI's server-run search). */
const toolSearchCallItem = z.looseObject({
  type: z.literal('tool_search_call'),
  call_id: callIdSchema.nullish(),
  execution: z.enum(['server', 'client']).nullish(),
  arguments: z.unknown(),
  id: z.string().nullish(),
  status: z.string().nullish(),
});

/** What the client's tool search found: tool definitions the model may call from now on. */
const toolSearchOutputItem = z.looseObject({
  type: z.literal('tool_search_output'),
  call_id: callIdSchema.nullish(),
  execution: z.enum(['server', 'client']).nullish(),
  tools: z.array(z.unknown()),
  id: z.string().nullish(),
  status: z.string().nullish(),
});

/** One input item; a message may omit `type` (EasyInputMessage), which is filled in before the union is checked. */
const inputItem = z.preprocess(
  (item) =>
    item !== null && typeof item === 'object' && !Array.isArray(item) && !('type' in item) && 'role' in item
      ? { ...item, type: 'message' }
      : item,
  z.discriminatedUnion('type', [
    messageItem,
    functionCallItem,
    functionCallOutputItem,
    reasoningItem,
    customToolCallItem,
    customToolCallOutputItem,
    toolSearchCallItem,
    toolSearchOutputItem,
  ]),
);

/** One validated input item. */
export type ResponsesInputItem = z.output<typeof inputItem>;

const functionTool = z.looseObject({
  type: z.literal('function'),
  name: toolName,
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

/** A function inside a `namespace` tool: named within its namespace (the gateway gives vendors a flat name). */
const namespaceMemberTool = functionTool.extend({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, 'must be 1 to 128 letters, digits, underscores or dashes'),
});

/** `NamespaceToolParam`: a named group of function tools whose calls come back naming the namespace. */
const namespaceTool = z.looseObject({
  type: z.literal('namespace'),
  name: z.string().min(1),
  description: z.string(),
  tools: z.array(namespaceMemberTool).min(1),
});

/** `CustomToolParam`: a tool called with free text, optionally constrained by a Lark grammar or a regex. */
const customTool = z.looseObject({
  type: z.literal('custom'),
  name: toolName,
  description: z.string().nullish(),
  format: z
    .discriminatedUnion('type', [
      z.looseObject({ type: z.literal('text') }),
      z.looseObject({ type: z.literal('grammar'), syntax: z.enum(['lark', 'regex']), definition: z.string() }),
    ])
    .nullish(),
});

/** `ToolSearchToolParam` run by the client (a server-run one is refused before the schema). */
const toolSearchTool = z.looseObject({
  type: z.literal('tool_search'),
  execution: z.literal('client'),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
});

/** One validated `tools` entry. */
export type ResponsesToolParam =
  | z.output<typeof functionTool>
  | z.output<typeof namespaceTool>
  | z.output<typeof customTool>
  | z.output<typeof toolSearchTool>;

/** The `tools` entries the gateway serves; also what a `tool_search_output` item may load. */
export const responsesToolSchema = z.discriminatedUnion('type', [
  functionTool,
  namespaceTool,
  customTool,
  toolSearchTool,
]);

const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), name: z.string().min(1) }),
]);

const textFormat = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: toolName,
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullish(),
    description: z.string().optional(),
  }),
]);

/** `metadata`: up to 16 pairs, keys up to 64 characters, values up to 512. */
const metadata = z
  .record(z.string().max(64), z.string().max(512))
  .refine((pairs) => Object.keys(pairs).length <= 16, 'must have at most 16 keys')
  .nullish();

/** The `include` values of the description's IncludeEnum. */
export const responsesIncludeValues = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
] as const;

/**
 * The `CreateResponse` fields the gateway translates, with the description's types and ranges. Fields it accepts
 * without acting on them are not listed: the parser reports them as ignored.
 */
export const responsesRequestFields = {
  model: z.string().min(1, 'must not be empty'),
  input: z.union([z.string(), z.array(inputItem)]).optional(),
  instructions: z.string().nullish(),
  tools: z.array(responsesToolSchema).optional(),
  tool_choice: toolChoice.optional(),
  parallel_tool_calls: z.boolean().nullish(),
  text: z
    .looseObject({ format: textFormat.optional(), verbosity: z.enum(['low', 'medium', 'high']).nullish() })
    .nullish(),
  reasoning: z
    .looseObject({
      effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
      summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
    })
    .nullish(),
  max_output_tokens: z.number().int().min(16).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  metadata,
  include: z.array(z.enum(responsesIncludeValues)).nullish(),
  store: z.boolean().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  truncation: z.enum(['auto', 'disabled']).nullish(),
  stream: z.boolean().nullish(),
  background: z.boolean().nullish(),
};

/** `POST /v1/responses`: the translated fields checked, the rest kept for the ignored-field report. */
export const responsesRequestSchema = z.looseObject(responsesRequestFields);

/** A body that passed the schema. */
export type ResponsesRequestBody = z.output<typeof responsesRequestSchema>;
