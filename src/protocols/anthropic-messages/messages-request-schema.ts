import { z } from 'zod';

// Block schemas are loose: fields the gateway does not act on (`cache_control`, `citations`, `title`, ...) are
// accepted and not carried into the canonical request (see docs/API.md, "Messages": cache_control policy).

const textBlock = z.looseObject({ type: z.literal('text'), text: z.string() });

const imageSource = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('base64'),
    media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
    data: z.string().min(1),
  }),
  z.looseObject({ type: z.literal('url'), url: z.string().min(1) }),
]);
const imageBlock = z.looseObject({ type: z.literal('image'), source: imageSource });

const documentSource = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string().min(1) }),
  z.looseObject({ type: z.literal('url'), url: z.string().min(1) }),
  z.looseObject({ type: z.literal('text'), media_type: z.literal('text/plain').optional(), data: z.string() }),
]);
const documentBlock = z.looseObject({
  type: z.literal('document'),
  source: documentSource,
  title: z.string().nullish(),
});

const toolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
});

/** Tool search's answer (`advanced-tool-use` beta): the deferred tool named is loaded from here on. */
const toolReferenceBlock = z.looseObject({ type: z.literal('tool_reference'), tool_name: z.string().min(1) });

const toolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z
    .union([
      z.string(),
      z.array(z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock, toolReferenceBlock])),
    ])
    .optional(),
  is_error: z.boolean().optional(),
});

const thinkingBlock = z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const redactedThinkingBlock = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });

/** What a mid-conversation tool change names: a tool of `tools`, an MCP tool or toolset, or an inline definition. */
const toolChangeTarget = z.looseObject({
  type: z.enum(['tool_reference', 'mcp_tool_reference', 'mcp_toolset_reference', 'tool_definition']),
  name: z.string().min(1).optional(),
});
/** `mid-conversation-tool-changes` beta, in a system message: offer a tool from here on, or withdraw it. */
const toolChangeBlock = z.looseObject({ type: z.enum(['tool_addition', 'tool_removal']), tool: toolChangeTarget });

/** Any content block a message may carry; which role may use which is checked when mapping. */
const contentBlock = z.discriminatedUnion('type', [
  toolChangeBlock,
  textBlock,
  imageBlock,
  documentBlock,
  toolUseBlock,
  toolResultBlock,
  thinkingBlock,
  redactedThinkingBlock,
]);

/** One content block of a request message. */
export type MessagesContentBlock = z.output<typeof contentBlock>;

/** One content block of a tool result. */
export type MessagesToolResultContentBlock = Exclude<
  z.output<typeof toolResultBlock>['content'],
  string | undefined
>[number];

const message = z.looseObject({
  // `system` inside `messages` is sent by newer Claude Code; it is hoisted into the system prompt.
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(contentBlock)]),
});

/** One message of the request. */
export type MessagesRequestMessage = z.output<typeof message>;

/** A custom (client) tool; server tools are refused before the schema runs. */
const customTool = z.looseObject({
  type: z.literal('custom').optional(),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, 'must be 1 to 128 letters, digits, underscores or dashes'),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal('object') }),
  // Tool search (`advanced-tool-use` beta): hidden from the model until a `tool_reference` result loads it.
  defer_loading: z.boolean().optional(),
});

const toolChoice = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({
    type: z.literal('tool'),
    name: z.string().min(1),
    disable_parallel_tool_use: z.boolean().optional(),
  }),
  z.looseObject({ type: z.literal('none') }),
]);

const thinking = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('enabled'), budget_tokens: z.int().min(1024, 'must be at least 1024') }),
  z.looseObject({ type: z.literal('disabled') }),
  z.looseObject({ type: z.literal('adaptive') }),
]);

/** Anthropic's effort levels (`output_config.effort`), the same names as the canonical scale's upper steps. */
export const messagesEffortLevels = ['low', 'medium', 'high', 'xhigh', 'max'] as const;

/** `output_config`: JSON output by schema, and how much effort the model spends. */
const outputConfig = z.looseObject({
  format: z.looseObject({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) }).nullish(),
  effort: z.enum(messagesEffortLevels).nullish(),
});

/** The fields of `POST /v1/messages` the gateway reads (others are accepted and listed as ignored). */
export const messagesRequestFields = {
  model: z.string().min(1),
  max_tokens: z.int().min(1),
  messages: z.array(message).min(1, 'at least one message is required'),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  tools: z.array(customTool).optional(),
  tool_choice: toolChoice.optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.int().min(0).optional(),
  thinking: thinking.optional(),
  output_config: outputConfig.optional(),
  metadata: z.looseObject({ user_id: z.string().max(256).nullish() }).optional(),
  stream: z.boolean().optional(),
};

/** `POST /v1/messages` as far as the gateway validates it. */
export const messagesRequestSchema = z.looseObject(messagesRequestFields);

/** A validated Messages request body. */
export type MessagesRequestBody = z.output<typeof messagesRequestSchema>;

/** `POST /v1/messages/count_tokens`: the same fields without `max_tokens` and `stream`. */
export const countTokensRequestSchema = messagesRequestSchema
  .omit({ max_tokens: true, stream: true })
  .extend({ max_tokens: z.int().min(1).optional() });
