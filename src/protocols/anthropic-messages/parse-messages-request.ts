import { z } from 'zod';
import type {
  CanonicalRequest,
  CanonicalSampling,
  CanonicalTool,
  CanonicalToolChoice,
} from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';
import { validateProtocolBody } from '../shared/validate-protocol-body.js';
import { mapMessagesInput, type MessagesToolChange, type UnsealArtefact } from './map-messages-input.js';
import {
  countTokensRequestSchema,
  messagesEffortLevels,
  messagesRequestFields,
  messagesRequestSchema,
  type MessagesRequestBody,
} from './messages-request-schema.js';
import { messagesOutputFormat } from './messages-output-format.js';
import { thinkingToReasoningEffort } from './thinking-to-reasoning-effort.js';

/** A Messages request in the gateway's terms. */
export interface ParsedMessagesRequest {
  request: CanonicalRequest;
  /** top-level fields accepted but not acted on (e.g. `service_tier`, `context_management`), for the request log */
  ignoredFields: string[];
  /** the field the reasoning effort came from, for naming it in a 400: `output_config.effort` when that set it */
  effortParam: 'thinking' | 'output_config.effort';
}

/** Options of the parse. */
export interface ParseMessagesOptions {
  /** opens thinking signatures the gateway sealed; without it every thinking block is dropped */
  unsealArtefact?: UnsealArtefact;
}

/** Block types the Messages API has that name server tools, files or search results, which translation cannot serve. */
const knownBlockTypes = new Set([
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'tool_addition',
  'tool_removal',
]);

/**
 * Claude Code's first system block (`x-anthropic-billing-header: cc_version=...; cch=...;`) changes on every request;
 * it means nothing to other vendors and breaks their prefix caching, so translation drops it.
 */
const attributionBlockPrefix = 'x-anthropic-billing-header:';

/**
 * Validates a `POST /v1/messages` body and maps it to the canonical request. Every problem is a 400 naming the
 * parameter; server tools and block types translation cannot serve are refused with a clear message.
 */
export function parseMessagesRequest(body: unknown, options: ParseMessagesOptions = {}): ParsedMessagesRequest {
  const fields = requireObject(body);
  refuseUnservedFeatures(fields);
  const parsed = validateProtocolBody(messagesRequestSchema, fields);
  if (parsed.thinking?.type === 'enabled' && parsed.thinking.budget_tokens >= parsed.max_tokens) {
    throw new GatewayError(
      'invalid_request_error',
      "Invalid value for 'thinking.budget_tokens': it must be less than 'max_tokens'.",
      {
        param: 'thinking.budget_tokens',
      },
    );
  }
  return {
    request: toCanonicalRequest(parsed, options),
    ignoredFields: Object.keys(fields).filter((field) => !(field in messagesRequestFields)),
    effortParam:
      parsed.output_config?.effort && parsed.thinking?.type !== 'disabled' ? 'output_config.effort' : 'thinking',
  };
}

/** Validates a `POST /v1/messages/count_tokens` body (no `max_tokens` needed) and maps it like a Messages request. */
export function parseCountTokensRequest(body: unknown, options: ParseMessagesOptions = {}): CanonicalRequest {
  const fields = requireObject(body);
  refuseUnservedFeatures(fields);
  const parsed = validateProtocolBody(countTokensRequestSchema, fields);
  return toCanonicalRequest({ ...parsed, max_tokens: parsed.max_tokens ?? 1 }, options);
}

function toCanonicalRequest(parsed: MessagesRequestBody, options: ParseMessagesOptions): CanonicalRequest {
  const input = mapMessagesInput(parsed.messages, options.unsealArtefact);
  const loadedToolNames = checkedLoadedToolNames(parsed.tools ?? [], input.loadedTools);
  // A deferred tool reaches the vendor only once a tool_reference loaded it, as Anthropic shows it to the model.
  const shownTools = (parsed.tools ?? []).filter(
    (tool) => tool.defer_loading !== true || loadedToolNames.has(tool.name),
  );
  const tools: CanonicalTool[] = shownTools.map((tool) => {
    const canonical: CanonicalTool = { name: tool.name, parameters: tool.input_schema, strict: null };
    if (tool.description) canonical.description = tool.description;
    return canonical;
  });
  const toolChoice = canonicalToolChoice(parsed.tool_choice);
  if (toolChoice?.type === 'tool' && !tools.some((tool) => tool.name === toolChoice.name)) {
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for 'tool_choice.name': no tool named '${toolChoice.name}' is in 'tools'.`,
      {
        param: 'tool_choice.name',
      },
    );
  }
  const offeredTools = applyToolChanges(tools, input.toolChanges);
  const systemTexts = [...systemTextsOf(parsed.system), ...input.hoistedSystemTexts];
  const sampling: CanonicalSampling = { temperature: parsed.temperature ?? null, topP: parsed.top_p ?? null };
  if (parsed.top_k !== undefined) sampling.topK = parsed.top_k;
  if (parsed.stop_sequences !== undefined && parsed.stop_sequences.length > 0)
    sampling.stopSequences = parsed.stop_sequences;
  const userId = parsed.metadata?.user_id;
  const reasoningEffort = thinkingToReasoningEffort(
    parsed.thinking,
    lastSystemMessageEffort(parsed.messages) ?? parsed.output_config?.effort,
  );
  const disablesParallel =
    parsed.tool_choice !== undefined &&
    'disable_parallel_tool_use' in parsed.tool_choice &&
    parsed.tool_choice.disable_parallel_tool_use === true;

  return {
    model: parsed.model,
    instructions: systemTexts.length > 0 ? systemTexts.join('\n\n') : null,
    messages: input.messages,
    tools: offeredTools,
    toolChoice,
    parallelToolCalls: disablesParallel ? false : null,
    outputFormat: messagesOutputFormat(parsed.output_config?.format),
    reasoningEffort,
    // Claude Code asks every model for thinking: a model that cannot reason answers without it (docs/API.md).
    ...(reasoningEffort !== null ? { reasoningOptional: true } : {}),
    maxOutputTokens: parsed.max_tokens,
    sampling,
    metadata: userId ? { user_id: userId } : null,
    stream: parsed.stream ?? false,
  };
}

/** The names `tool_reference` results load; each must name a tool of `tools`, as Anthropic requires. */
function checkedLoadedToolNames(
  tools: NonNullable<MessagesRequestBody['tools']>,
  loaded: ReadonlyArray<{ name: string; param: string }>,
): Set<string> {
  for (const { name, param } of loaded) {
    if (!tools.some((tool) => tool.name === name))
      throw new GatewayError(
        'invalid_request_error',
        `Invalid value for '${param}': no tool named '${name}' is in 'tools'.`,
        {
          param,
        },
      );
  }
  return new Set(loaded.map(({ name }) => name));
}

/**
 * The tools offered at the end of the conversation: a tool withdrawn by a `tool_removal` and not offered again by a
 * later `tool_addition` is left out; every other tool is offered from the start (vendors have no mid-conversation
 * change), which the model may use earlier than the client meant.
 */
function applyToolChanges(tools: CanonicalTool[], changes: readonly MessagesToolChange[]): CanonicalTool[] {
  const removed = new Set<string>();
  for (const change of changes) {
    if (!tools.some((tool) => tool.name === change.name)) {
      throw new GatewayError(
        'invalid_request_error',
        `Invalid value for '${change.param}': no tool named '${change.name}' is in 'tools'.`,
        { param: change.param },
      );
    }
    if (change.kind === 'tool_removal') removed.add(change.name);
    else removed.delete(change.name);
  }
  return removed.size > 0 ? tools.filter((tool) => !removed.has(tool.name)) : tools;
}

const systemMessageOutputConfig = z.object({
  output_config: z.looseObject({ effort: z.enum(messagesEffortLevels).nullish() }).nullish(),
});

/** The effort the last `system` message sets (`output_config.effort`, per turn), which overrides the top-level one. */
function lastSystemMessageEffort(
  messages: MessagesRequestBody['messages'],
): (typeof messagesEffortLevels)[number] | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'system') continue;
    const parsed = systemMessageOutputConfig.safeParse(message);
    if (!parsed.success) {
      const param = `messages[${index}].output_config.effort`;
      throw new GatewayError('invalid_request_error', `Invalid value for '${param}'.`, { param });
    }
    const effort = parsed.data.output_config?.effort;
    if (effort) return effort;
  }
  return undefined;
}

function requireObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new GatewayError('invalid_request_error', 'The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/** The system prompt's texts, without Claude Code's per-request attribution block. */
function systemTextsOf(system: MessagesRequestBody['system']): string[] {
  if (system === undefined) return [];
  const texts = typeof system === 'string' ? [system] : system.map((block) => block.text);
  return texts.filter((text) => text.length > 0 && !text.startsWith(attributionBlockPrefix));
}

/** Top-level fields that ask for Anthropic-hosted services (remote MCP servers, code-execution containers). */
const hostedServiceFields = ['mcp_servers', 'container'] as const;

/** Server tools, hosted services and unknown block types get a clear 400 before the schema, whose message would be vaguer. */
function refuseUnservedFeatures(fields: Record<string, unknown>): void {
  for (const field of hostedServiceFields) {
    const value = fields[field];
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for '${field}': Anthropic-hosted services are not supported by this gateway.`,
      { param: field },
    );
  }
  if (Array.isArray(fields.tools)) {
    fields.tools.forEach((tool: unknown, index) => {
      const type = typeOf(tool);
      if (type !== undefined && type !== 'custom') {
        throw new GatewayError(
          'invalid_request_error',
          `Invalid value for 'tools[${index}].type': server tools ('${String(type)}') are not supported by this gateway; define a custom tool with 'input_schema'.`,
          {
            param: `tools[${index}].type`,
          },
        );
      }
    });
  }
  if (Array.isArray(fields.messages)) {
    fields.messages.forEach((message: unknown, messageIndex) => {
      const content =
        message !== null && typeof message === 'object' ? (message as { content?: unknown }).content : undefined;
      if (!Array.isArray(content)) return;
      content.forEach((block: unknown, blockIndex) => {
        const type = typeOf(block);
        if (typeof type === 'string' && !knownBlockTypes.has(type)) {
          const param = `messages[${messageIndex}].content[${blockIndex}].type`;
          throw new GatewayError(
            'invalid_request_error',
            `Invalid value for '${param}': '${type}' blocks are not supported by this gateway.`,
            { param },
          );
        }
      });
    });
  }
}

function typeOf(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
}

function canonicalToolChoice(choice: MessagesRequestBody['tool_choice']): CanonicalToolChoice | null {
  if (choice === undefined) return null;
  switch (choice.type) {
    case 'auto':
      return { type: 'auto' };
    case 'any':
      return { type: 'required' };
    case 'none':
      return { type: 'none' };
    case 'tool':
      return { type: 'tool', name: choice.name };
    default: {
      const unreachable: never = choice;
      throw new Error(`Unhandled tool choice ${JSON.stringify(unreachable)}`);
    }
  }
}
