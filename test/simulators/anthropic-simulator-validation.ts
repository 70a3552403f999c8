// Checks a Messages request the way Anthropic does, so a translation bug in the gateway fails a test.
import { anthropicInvalidRequest } from './anthropic-simulator-errors.js';

/** A request content block, loosely typed. */
export type AnthropicBlock = Record<string, unknown> & { type: string };

/** A validated message; `system` ones only under the `per-turn-control` beta. */
export interface AnthropicSimulatorMessage {
  role: 'user' | 'assistant' | 'system';
  content: AnthropicBlock[];
}

/** A validated Messages request. */
export interface AnthropicSimulatorRequest {
  model: string;
  max_tokens: number;
  system: AnthropicBlock[];
  messages: AnthropicSimulatorMessage[];
  stream: boolean;
  stop_sequences: string[];
  tools: Array<{ name: string }>;
  tool_choice: { type: string; name?: string; disable_parallel_tool_use?: boolean } | undefined;
  /** true when any block, tool or the top level carries `cache_control` */
  hasCacheControl: boolean;
  /** true when some `cache_control` asks for a 1-hour TTL (`"ttl": "1h"`) */
  hasOneHourCacheTtl: boolean;
  /** true when `output_config.format` asks for JSON held to a schema */
  jsonOutput: boolean;
  raw: Record<string, unknown>;
}

/** What the body is for: a message to create, or `POST /v1/messages/count_tokens` (no max_tokens, stream or sampling). */
export type AnthropicRequestPurpose = 'create' | 'count';

const commonTopLevelFields = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'stop_sequences',
  'stream',
  'metadata',
  'tools',
  'tool_choice',
  'thinking',
  'service_tier',
  'cache_control',
  'container',
  'inference_geo',
  'speed',
  'output_config',
]);
const countTopLevelFields = new Set([
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'cache_control',
  'speed',
  'output_config',
]);
/** Body fields Anthropic accepts only while their beta is named in the `anthropic-beta` header. */
const betaFields: Record<string, string> = {
  context_management: 'context-management-2025-06-27',
  mcp_servers: 'mcp-client-2025-04-04',
};

/** `role: "system"` messages inside `messages` (with `clear_at` and a per-turn `output_config.effort`, as Claude Code sends). */
const perTurnControlBeta = 'per-turn-control-2026-07-01';
/** `tool_addition` / `tool_removal` blocks in system messages. */
const toolChangesBeta = 'mid-conversation-tool-changes-2026-07-01';
/** `defer_loading` tools and `tool_reference` blocks in tool results (tool search). */
const toolSearchBeta = 'advanced-tool-use-2025-11-20';

/** What else shapes validation besides the body and the version. */
export interface AnthropicValidationOptions {
  /** default `create` */
  purpose?: AnthropicRequestPurpose;
  /** the betas named in the `anthropic-beta` header */
  betas?: readonly string[];
}

/** The betas of an `anthropic-beta` header value (a comma list). */
export function betasOf(header: string | string[] | undefined): string[] {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values
    .flatMap((value) => value.split(','))
    .map((beta) => beta.trim())
    .filter((beta) => beta !== '');
}
const samplingFields = new Set(['temperature', 'top_p', 'top_k']);
const blockTypes = new Set([
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'search_result',
]);
const imageMediaTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Validates the body for an API version (`2023-06-01` takes sampling fields, `2026-10-21` does not); both take
 * `output_config` (JSON output by a closed schema, effort), as Anthropic does.
 */
export function validateAnthropicRequest(
  body: unknown,
  apiVersion: string,
  options: AnthropicValidationOptions = {},
): AnthropicSimulatorRequest {
  const purpose = options.purpose ?? 'create';
  const betas = options.betas ?? [];
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw anthropicInvalidRequest('The request body is not valid JSON.');
  const raw = body as Record<string, unknown>;
  const newVersion = apiVersion >= '2026-10-21';
  const fields = purpose === 'create' ? commonTopLevelFields : countTopLevelFields;
  for (const field of Object.keys(raw)) {
    const beta = betaFields[field];
    const known =
      fields.has(field) ||
      (beta !== undefined && betas.includes(beta)) ||
      (!newVersion && purpose === 'create' && samplingFields.has(field));
    if (!known) throw anthropicInvalidRequest(`${field}: Extra inputs are not permitted`);
  }
  if (typeof raw.model !== 'string' || raw.model === '') throw anthropicInvalidRequest('model: Field required');
  const maxTokens = purpose === 'count' ? 1 : raw.max_tokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    throw anthropicInvalidRequest('max_tokens: Field required and must be a positive integer');
  }
  checkRange(raw, 'temperature', 0, 1);
  checkRange(raw, 'top_p', 0, 1);
  const tools = validateTools(raw.tools, betas);
  const messages = validateMessages(raw.messages, betas, tools);
  const toolChoice = validateToolChoice(raw.tool_choice, tools);
  const outputConfig = validateOutputConfig(raw.output_config);
  return {
    model: raw.model,
    max_tokens: maxTokens,
    system: validateSystem(raw.system),
    messages,
    stream: raw.stream === true,
    stop_sequences: Array.isArray(raw.stop_sequences)
      ? raw.stop_sequences.filter((value): value is string => typeof value === 'string')
      : [],
    tools,
    tool_choice: toolChoice,
    hasCacheControl: JSON.stringify(raw).includes('"cache_control"'),
    hasOneHourCacheTtl: /"ttl":\s*"1h"/.test(JSON.stringify(raw)),
    jsonOutput: outputConfig.jsonOutput,
    raw,
  };
}

const effortLevels = new Set(['low', 'medium', 'high', 'xhigh', 'max']);

/** `output_config`: `format` a JSON schema whose objects are all closed, `effort` one of Anthropic's levels. */
function validateOutputConfig(value: unknown): { jsonOutput: boolean } {
  if (value === undefined || value === null) return { jsonOutput: false };
  if (typeof value !== 'object' || Array.isArray(value))
    throw anthropicInvalidRequest('output_config: Input should be a valid dictionary');
  const config = value as Record<string, unknown>;
  for (const key of Object.keys(config)) {
    if (key !== 'format' && key !== 'effort')
      throw anthropicInvalidRequest(`output_config.${key}: Extra inputs are not permitted`);
  }
  if (config.effort !== undefined && config.effort !== null && !effortLevels.has(String(config.effort)))
    throw anthropicInvalidRequest("output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'");
  const format = config.format;
  if (format === undefined || format === null) return { jsonOutput: false };
  const fields = format as Record<string, unknown>;
  if (fields.type !== 'json_schema')
    throw anthropicInvalidRequest("output_config.format.type: Input should be 'json_schema'");
  if (!fields.schema || typeof fields.schema !== 'object' || Array.isArray(fields.schema))
    throw anthropicInvalidRequest('output_config.format.schema: Field required');
  checkClosedObjects(fields.schema as Record<string, unknown>);
  return { jsonOutput: true };
}

/** Anthropic's structured outputs take only closed objects (`additionalProperties: false`), nested ones included. */
function checkClosedObjects(schema: Record<string, unknown>): void {
  if (schema.type === 'object' && schema.additionalProperties !== false)
    throw anthropicInvalidRequest(
      "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false",
    );
  const children = [
    ...Object.values((schema.properties ?? {}) as Record<string, unknown>),
    ...Object.values((schema.$defs ?? {}) as Record<string, unknown>),
    schema.items,
    ...(Array.isArray(schema.anyOf) ? (schema.anyOf as unknown[]) : []),
  ];
  for (const child of children)
    if (child && typeof child === 'object' && !Array.isArray(child))
      checkClosedObjects(child as Record<string, unknown>);
}

function checkRange(raw: Record<string, unknown>, field: string, minimum: number, maximum: number): void {
  const value = raw[field];
  if (value === undefined) return;
  if (typeof value !== 'number' || value < minimum || value > maximum) {
    throw anthropicInvalidRequest(`${field}: Input should be less than or equal to ${maximum}`);
  }
}

function validateSystem(system: unknown): AnthropicBlock[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return [{ type: 'text', text: system }];
  if (!Array.isArray(system)) throw anthropicInvalidRequest('system: Input should be a valid string or list');
  system.forEach((block, index) => {
    if (!isBlock(block) || block.type !== 'text' || typeof block.text !== 'string')
      throw anthropicInvalidRequest(`system.${index}: Input should be a text block`);
  });
  return system as AnthropicBlock[];
}

function validateMessages(
  value: unknown,
  betas: readonly string[],
  tools: ReadonlyArray<{ name: string }>,
): AnthropicSimulatorMessage[] {
  if (!Array.isArray(value) || value.length === 0)
    throw anthropicInvalidRequest('messages: at least one message is required');
  const messages = value.map((message, index) => normaliseMessage(message, index, betas));
  // System messages stand outside the user/assistant alternation and the tool pairing.
  const turns = messages.flatMap((message, index) => (message.role === 'system' ? [] : [{ message, index }]));
  if (turns.length === 0) throw anthropicInvalidRequest('messages: at least one user message is required');
  const conversation = turns.map((turn) => turn.message);
  turns.forEach(({ message, index }, turnIndex) => {
    if (turnIndex === 0 && message.role !== 'user')
      throw anthropicInvalidRequest('messages: first message must use the "user" role');
    const previous = conversation[turnIndex - 1];
    if (previous && previous.role === message.role) {
      throw anthropicInvalidRequest(
        `messages: roles must alternate between "user" and "assistant", but found multiple "${message.role}" roles in a row`,
      );
    }
    message.content.forEach((block, blockIndex) =>
      validateBlock(block, `messages.${index}.content.${blockIndex}`, message.role, betas, tools),
    );
    checkToolPairing(conversation, turnIndex);
  });
  messages.forEach((message, index) => {
    if (message.role !== 'system') return;
    message.content.forEach((block, blockIndex) =>
      validateSystemMessageBlock(block, `messages.${index}.content.${blockIndex}`, betas, tools),
    );
  });
  return messages;
}

function normaliseMessage(message: unknown, index: number, betas: readonly string[]): AnthropicSimulatorMessage {
  if (!message || typeof message !== 'object')
    throw anthropicInvalidRequest(`messages.${index}: Input should be an object`);
  const { role, content, ...rest } = message as Record<string, unknown>;
  const systemAllowed = betas.includes(perTurnControlBeta);
  if (role === 'system' && !systemAllowed)
    throw anthropicInvalidRequest(`messages.${index}.role: Input should be 'user' or 'assistant'`);
  if (role !== 'user' && role !== 'assistant' && role !== 'system')
    throw anthropicInvalidRequest(`messages.${index}.role: Input should be 'user', 'assistant' or 'system'`);
  const allowedExtras = role === 'system' ? ['clear_at', 'output_config'] : [];
  const extra = Object.keys(rest).find((key) => !allowedExtras.includes(key));
  if (extra) throw anthropicInvalidRequest(`messages.${index}.${extra}: Extra inputs are not permitted`);
  if (
    rest.clear_at !== undefined &&
    rest.clear_at !== null &&
    !['next_user_message', 'never'].includes(String(rest.clear_at))
  )
    throw anthropicInvalidRequest(`messages.${index}.clear_at: Input should be 'next_user_message' or 'never'`);
  if (rest.output_config !== undefined && rest.output_config !== null)
    validateMessageOutputConfig(rest.output_config, `messages.${index}.output_config`);
  if (typeof content === 'string') {
    if (content === '') throw anthropicInvalidRequest(`messages.${index}: text content blocks must be non-empty`);
    return { role, content: [{ type: 'text', text: content }] };
  }
  if (!Array.isArray(content) || content.length === 0)
    throw anthropicInvalidRequest(`messages.${index}.content: must be a non-empty string or list`);
  if (!content.every(isBlock)) throw anthropicInvalidRequest(`messages.${index}.content: every block needs a type`);
  return { role, content };
}

/** A system message's per-turn `output_config`: only `effort` (`format` stays top-level). */
function validateMessageOutputConfig(value: unknown, path: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw anthropicInvalidRequest(`${path}: Input should be a valid dictionary`);
  for (const [key, setting] of Object.entries(value)) {
    if (key !== 'effort') throw anthropicInvalidRequest(`${path}.${key}: Extra inputs are not permitted`);
    if (setting !== null && !effortLevels.has(String(setting)))
      throw anthropicInvalidRequest(`${path}.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'`);
  }
}

/** A system message holds text and, under its beta, tool changes naming a tool of `tools`. */
function validateSystemMessageBlock(
  block: AnthropicBlock,
  path: string,
  betas: readonly string[],
  tools: ReadonlyArray<{ name: string }>,
): void {
  if (block.type === 'text') {
    if (typeof block.text !== 'string' || block.text === '')
      throw anthropicInvalidRequest(`${path}: text content blocks must be non-empty`);
    return;
  }
  if ((block.type === 'tool_addition' || block.type === 'tool_removal') && betas.includes(toolChangesBeta)) {
    const tool = (block.tool ?? {}) as Record<string, unknown>;
    if (tool.type === 'tool_reference' && !tools.some((known) => known.name === tool.name))
      throw anthropicInvalidRequest(`${path}.tool: Tool '${String(tool.name)}' not found in tools`);
    return;
  }
  throw anthropicInvalidRequest(
    `${path}.type: Input tag '${block.type}' found using 'type' does not match any of the expected tags`,
  );
}

function validateBlock(
  block: AnthropicBlock,
  path: string,
  role: 'user' | 'assistant' | 'system',
  betas: readonly string[],
  tools: ReadonlyArray<{ name: string }>,
): void {
  if (!blockTypes.has(block.type))
    throw anthropicInvalidRequest(
      `${path}.type: Input tag '${block.type}' found using 'type' does not match any of the expected tags`,
    );
  if (block.type === 'text' && (typeof block.text !== 'string' || block.text === ''))
    throw anthropicInvalidRequest(`${path}: text content blocks must be non-empty`);
  if (block.type === 'image') validateImageSource(block.source, path);
  if (block.type === 'tool_use') {
    if (role !== 'assistant')
      throw anthropicInvalidRequest(`${path}: tool_use blocks may only appear in assistant messages`);
    if (typeof block.id !== 'string' || typeof block.name !== 'string')
      throw anthropicInvalidRequest(`${path}: tool_use needs an id and a name`);
    if (!block.input || typeof block.input !== 'object' || Array.isArray(block.input))
      throw anthropicInvalidRequest(`${path}.input: Input should be a valid dictionary`);
  }
  if (block.type === 'tool_result') {
    if (role !== 'user') throw anthropicInvalidRequest(`${path}: tool_result blocks may only appear in user messages`);
    if (typeof block.tool_use_id !== 'string') throw anthropicInvalidRequest(`${path}.tool_use_id: Field required`);
    if (Array.isArray(block.content))
      block.content.forEach((part: unknown, index) =>
        validateToolResultPart(part, `${path}.content.${index}`, betas, tools),
      );
  }
}

const toolResultPartTypes = new Set(['text', 'image', 'document', 'search_result']);

/** Tool result content; a `tool_reference` (tool search's answer) only under its beta, naming a tool of `tools`. */
function validateToolResultPart(
  part: unknown,
  path: string,
  betas: readonly string[],
  tools: ReadonlyArray<{ name: string }>,
): void {
  if (!isBlock(part)) throw anthropicInvalidRequest(`${path}: every block needs a type`);
  if (part.type === 'tool_reference' && betas.includes(toolSearchBeta)) {
    if (!tools.some((tool) => tool.name === part.tool_name))
      throw anthropicInvalidRequest(`${path}.tool_name: Tool '${String(part.tool_name)}' not found in tools`);
    return;
  }
  if (!toolResultPartTypes.has(part.type))
    throw anthropicInvalidRequest(
      `${path}.type: Input tag '${part.type}' found using 'type' does not match any of the expected tags`,
    );
}

function validateImageSource(source: unknown, path: string): void {
  const fields = (source ?? {}) as Record<string, unknown>;
  if (fields.type === 'base64') {
    if (typeof fields.media_type !== 'string' || !imageMediaTypes.has(fields.media_type))
      throw anthropicInvalidRequest(
        `${path}.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
      );
    if (typeof fields.data !== 'string' || fields.data === '')
      throw anthropicInvalidRequest(`${path}.source.data: Field required`);
    return;
  }
  if (fields.type === 'url' && typeof fields.url === 'string' && /^https?:\/\//.test(fields.url)) return;
  throw anthropicInvalidRequest(
    `${path}.source: Input tag does not match any of the expected tags: 'base64', 'url', 'file'`,
  );
}

/** Every tool_result must answer a tool_use of the previous assistant turn, and every tool_use must be answered in the next user turn. */
function checkToolPairing(messages: AnthropicSimulatorMessage[], index: number): void {
  const message = messages[index] as AnthropicSimulatorMessage;
  const previous = messages[index - 1];
  if (message.role === 'user') {
    const offered = new Set(previous?.content.filter((block) => block.type === 'tool_use').map((block) => block.id));
    for (const block of message.content) {
      if (block.type === 'tool_result' && !offered.has(block.tool_use_id)) {
        throw anthropicInvalidRequest(
          `messages.${index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    }
  }
  if (message.role === 'assistant') {
    const uses = message.content.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
    const next = messages[index + 1];
    const answered = new Set(
      next?.content.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id),
    );
    const missing = uses.filter((id) => next !== undefined && !answered.has(id));
    if (missing.length > 0) {
      throw anthropicInvalidRequest(
        `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}`,
      );
    }
  }
}

function validateTools(value: unknown, betas: readonly string[]): Array<{ name: string }> {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw anthropicInvalidRequest('tools: Input should be a valid list');
  return value.map((tool: unknown, index) => {
    const fields = (tool ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      if (
        !['name', 'description', 'input_schema', 'cache_control', 'strict', 'eager_input_streaming', 'type'].includes(
          key,
        ) &&
        !(key === 'defer_loading' && betas.includes(toolSearchBeta))
      )
        throw anthropicInvalidRequest(`tools.${index}.${key}: Extra inputs are not permitted`);
    }
    if (typeof fields.name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(fields.name))
      throw anthropicInvalidRequest(`tools.${index}.name: String should match pattern`);
    const schema = fields.input_schema as Record<string, unknown> | undefined;
    if (!schema || schema.type !== 'object')
      throw anthropicInvalidRequest(`tools.${index}.input_schema.type: Input should be 'object'`);
    return { name: fields.name };
  });
}

function validateToolChoice(value: unknown, tools: Array<{ name: string }>): AnthropicSimulatorRequest['tool_choice'] {
  if (value === undefined) return undefined;
  const choice = (value ?? {}) as { type?: unknown; name?: unknown; disable_parallel_tool_use?: unknown };
  if (!['auto', 'any', 'tool', 'none'].includes(String(choice.type)))
    throw anthropicInvalidRequest('tool_choice.type: Input tag does not match any of the expected tags');
  if (choice.type === 'none' && choice.disable_parallel_tool_use !== undefined)
    throw anthropicInvalidRequest('tool_choice.none.disable_parallel_tool_use: Extra inputs are not permitted');
  if (choice.type === 'tool' && !tools.some((tool) => tool.name === choice.name))
    throw anthropicInvalidRequest(`tool_choice: Tool '${String(choice.name)}' not found in tools`);
  if (tools.length === 0) throw anthropicInvalidRequest('tool_choice: may only be specified while providing tools');
  return {
    type: String(choice.type),
    name: typeof choice.name === 'string' ? choice.name : undefined,
    disable_parallel_tool_use: choice.disable_parallel_tool_use === true,
  };
}

function isBlock(value: unknown): value is AnthropicBlock {
  return !!value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string';
}
