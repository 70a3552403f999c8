import type {
  CanonicalOutputFormat,
  CanonicalRequest,
  CanonicalTool,
  CanonicalToolChoice,
} from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';
import { validateProtocolBody } from '../shared/validate-protocol-body.js';
import { customToolFunction } from './custom-tool-function.js';
import { mapResponsesInput, type UnsealReasoning } from './map-responses-input.js';
import { refuseUnservedTools } from './refuse-unserved-tools.js';
import {
  responsesRequestFields,
  responsesRequestSchema,
  responsesToolSchema,
  type responsesIncludeValues,
  type ResponsesRequestBody,
  type ResponsesToolParam,
} from './responses-request-schema.js';
import { createResponsesToolMap, type ResponsesToolMap } from './responses-tool-map.js';
import type {
  ResponseEcho,
  ResponsesCustomTool,
  ResponsesEchoedTool,
  ResponsesFunctionTool,
  ResponsesTextFormat,
  ResponsesToolChoice,
} from './responses-wire-types.js';
import { toolSearchFunction, toolSearchResultText } from './tool-search-function.js';

/** One `include` value. */
export type ResponsesInclude = (typeof responsesIncludeValues)[number];

/** A Responses request in the gateway's terms, plus what only the Responses surface needs. */
export interface ParsedResponsesRequest {
  request: CanonicalRequest;
  /** `store` (default true): false means nothing of the response may be kept */
  store: boolean;
  include: ResponsesInclude[];
  previousResponseId: string | null;
  truncation: 'auto' | 'disabled';
  /** what the Response object repeats back */
  echo: ResponseEcho;
  /** the tools `tool_search_output` items in `input` loaded (callable beside `tools`; not echoed) */
  loadedTools: ResponsesEchoedTool[];
  /** top-level fields accepted but not acted on (e.g. `prompt_cache_key`, `user`), for the request log */
  ignoredFields: string[];
}

/** Item types of the description that name hosted tools or stored state, which translation cannot serve. */
const untranslatableItemTypes = new Set([
  'item_reference',
  'file_search_call',
  'web_search_call',
  'computer_call',
  'computer_call_output',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'compaction',
]);

/** Options of the parse: how to open sealed reasoning artefacts. */
export interface ParseResponsesOptions {
  unsealReasoning?: UnsealReasoning;
}

/**
 * Validates a `POST /v1/responses` body and maps it to the canonical request. Every problem is a 400 naming the
 * parameter; `background: true`, `conversation` and `prompt` are refused, since this path keeps no background jobs,
 * conversations or stored prompts.
 */
export function parseResponsesRequest(body: unknown, options: ParseResponsesOptions = {}): ParsedResponsesRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new GatewayError('invalid_request_error', 'The request body must be a JSON object.');
  }
  const fields = body as Record<string, unknown>;
  refuseUnservedFeatures(fields);
  const parsed = validateProtocolBody(responsesRequestSchema, fields);
  if (parsed.input === undefined && !parsed.previous_response_id) {
    throw new GatewayError('invalid_request_error', "Missing required parameter: 'input'.", { param: 'input' });
  }

  const echoedTools = (parsed.tools ?? []).map(echoedTool);
  const loadedTools = parsed.input === undefined ? [] : toolsLoadedBy(parsed.input);
  const toolNames = createResponsesToolMap([...echoedTools, ...loadedTools]);
  const tools = canonicalToolsOf(echoedTools, loadedTools, toolNames);
  const toolChoice = canonicalToolChoice(parsed.tool_choice);
  if (toolChoice?.type === 'tool' && !tools.some((tool) => tool.name === toolChoice.name)) {
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for 'tool_choice.name': no function named '${toolChoice.name}' is in 'tools'.`,
      {
        param: 'tool_choice.name',
      },
    );
  }
  const textFormat: ResponsesTextFormat = normaliseTextFormat(parsed.text?.format);
  const store = parsed.store ?? true;
  const truncation = parsed.truncation ?? 'disabled';

  const request: CanonicalRequest = {
    model: parsed.model,
    instructions: parsed.instructions ?? null,
    messages:
      parsed.input === undefined
        ? []
        : mapResponsesInput(withVendorCallNames(parsed.input, toolNames), options.unsealReasoning, (loaded) =>
            toolSearchResultText(vendorNamesOf(loaded.flatMap(validToolOf), toolNames)),
          ),
    tools,
    toolChoice,
    parallelToolCalls: parsed.parallel_tool_calls ?? null,
    outputFormat: canonicalOutputFormat(textFormat),
    reasoningEffort: parsed.reasoning?.effort ?? null,
    maxOutputTokens: parsed.max_output_tokens ?? null,
    sampling: { temperature: parsed.temperature ?? null, topP: parsed.top_p ?? null },
    metadata: parsed.metadata ?? null,
    stream: parsed.stream ?? false,
  };

  const echo: ResponseEcho = {
    model: parsed.model,
    instructions: request.instructions,
    tools: echoedTools,
    tool_choice: echoedToolChoice(parsed.tool_choice),
    parallel_tool_calls: parsed.parallel_tool_calls ?? true,
    temperature: request.sampling.temperature,
    top_p: request.sampling.topP,
    max_output_tokens: request.maxOutputTokens,
    metadata: parsed.metadata ?? {},
    text: { format: textFormat },
    reasoning: { effort: parsed.reasoning?.effort ?? null, summary: parsed.reasoning?.summary ?? null },
    truncation,
    store,
    previous_response_id: parsed.previous_response_id ?? null,
  };

  return {
    request,
    store,
    include: parsed.include ?? [],
    previousResponseId: parsed.previous_response_id ?? null,
    truncation,
    echo,
    loadedTools,
    ignoredFields: Object.keys(fields).filter((field) => !(field in responsesRequestFields)),
  };
}

/** The features a clear 400 is better for than a silent drop; checked before the schema for a precise message. */
function refuseUnservedFeatures(fields: Record<string, unknown>): void {
  if (fields.background === true) {
    throw new GatewayError(
      'invalid_request_error',
      "Invalid value for 'background': background responses are not supported by this gateway.",
      {
        param: 'background',
      },
    );
  }
  if (fields.conversation !== undefined && fields.conversation !== null) {
    throw new GatewayError(
      'invalid_request_error',
      "Invalid value for 'conversation': conversations are not supported by this gateway; use 'previous_response_id'.",
      {
        param: 'conversation',
      },
    );
  }
  if (fields.prompt !== undefined && fields.prompt !== null) {
    throw new GatewayError(
      'invalid_request_error',
      "Invalid value for 'prompt': stored prompts are not supported by this gateway.",
      { param: 'prompt' },
    );
  }
  if (Array.isArray(fields.input)) {
    fields.input.forEach((item: unknown, index) => {
      const type = item !== null && typeof item === 'object' ? (item as { type?: unknown }).type : undefined;
      if (typeof type === 'string' && untranslatableItemTypes.has(type)) {
        throw new GatewayError(
          'invalid_request_error',
          `Invalid value for 'input[${index}].type': '${type}' items are not supported by this gateway.`,
          {
            param: `input[${index}].type`,
          },
        );
      }
    });
  }
  refuseUnservedTools(fields.tools);
}

type FunctionToolParam = Extract<ResponsesToolParam, { type: 'function' }>;

function canonicalToolOf(tool: FunctionToolParam | ResponsesFunctionTool, vendorName: string): CanonicalTool {
  const canonical: CanonicalTool = {
    name: vendorName,
    parameters: tool.parameters ?? null,
    strict: tool.strict ?? null,
  };
  if (tool.description) canonical.description = tool.description;
  return canonical;
}

function echoedFunction(tool: FunctionToolParam): ResponsesFunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description ?? null,
    parameters: tool.parameters ?? null,
    strict: tool.strict ?? null,
  };
}

/** A tool as the Response repeats it: as the client sent it (a namespace keeps its functions' own names). */
function echoedTool(tool: ResponsesToolParam): ResponsesEchoedTool {
  switch (tool.type) {
    case 'function':
      return echoedFunction(tool);
    case 'namespace':
      return {
        type: 'namespace',
        name: tool.name,
        description: tool.description,
        tools: tool.tools.map(echoedFunction),
      };
    case 'custom':
      return { type: 'custom', name: tool.name, description: tool.description ?? null, format: echoedFormat(tool) };
    case 'tool_search':
      return {
        type: 'tool_search',
        execution: 'client',
        description: tool.description ?? null,
        parameters: tool.parameters ?? null,
      };
    default: {
      const unreachable: never = tool;
      throw new Error(`Unhandled tool ${JSON.stringify(unreachable)}`);
    }
  }
}

function echoedFormat(tool: Extract<ResponsesToolParam, { type: 'custom' }>): ResponsesCustomTool['format'] {
  if (!tool.format) return null;
  return tool.format.type === 'text'
    ? { type: 'text' }
    : { type: 'grammar', syntax: tool.format.syntax, definition: tool.format.definition };
}

/** The tools every `tool_search_output` item of the input loaded, in order; an invalid definition is a 400. */
function toolsLoadedBy(input: NonNullable<ResponsesRequestBody['input']>): ResponsesEchoedTool[] {
  if (typeof input === 'string') return [];
  return input.flatMap((item, itemIndex) => {
    if (item.type !== 'tool_search_output') return [];
    return item.tools.map((tool, toolIndex) => {
      const checked = responsesToolSchema.safeParse(tool);
      if (!checked.success) {
        const param = `input[${itemIndex}].tools[${toolIndex}]`;
        throw new GatewayError(
          'invalid_request_error',
          `Invalid value for '${param}': a loaded tool must be a function, namespace or custom tool (${checked.error.issues[0]?.message ?? 'invalid'}).`,
          { param },
        );
      }
      return echoedTool(checked.data);
    });
  });
}

/** A loaded tool definition when it is one the gateway serves (already checked by toolsLoadedBy), else nothing. */
function validToolOf(tool: unknown): ResponsesEchoedTool[] {
  const checked = responsesToolSchema.safeParse(tool);
  return checked.success ? [echoedTool(checked.data)] : [];
}

/** The vendor names of the functions some tools give the vendor. */
function vendorNamesOf(tools: readonly ResponsesEchoedTool[], toolNames: ResponsesToolMap): string[] {
  return canonicalToolsOf(tools, [], toolNames).map((tool) => tool.name);
}

/**
 * The function tools a translated vendor is given: the request's, then the loaded ones it does not have yet. Two
 * requested tools under one vendor name (a function named `tool_search` beside the tool search) are a 400.
 */
function canonicalToolsOf(
  requested: readonly ResponsesEchoedTool[],
  loaded: readonly ResponsesEchoedTool[],
  toolNames: ResponsesToolMap,
): CanonicalTool[] {
  const tools: CanonicalTool[] = [];
  const seen = new Set<string>();
  const add = (candidates: CanonicalTool[], isRequested: boolean, index: number): void => {
    for (const tool of candidates) {
      if (seen.has(tool.name)) {
        if (!isRequested) continue;
        throw new GatewayError(
          'invalid_request_error',
          `Invalid value for 'tools[${index}]': the name '${tool.name}' is used by more than one tool.`,
          { param: `tools[${index}]` },
        );
      }
      seen.add(tool.name);
      tools.push(tool);
    }
  };
  requested.forEach((tool, index) => add(functionsOf(tool, toolNames), true, index));
  loaded.forEach((tool, index) => add(functionsOf(tool, toolNames), false, index));
  return tools;
}

function functionsOf(tool: ResponsesEchoedTool, toolNames: ResponsesToolMap): CanonicalTool[] {
  switch (tool.type) {
    case 'function':
      return [canonicalToolOf(tool, tool.name)];
    case 'namespace':
      return tool.tools.map((member) =>
        canonicalToolOf(member, toolNames.vendorNameOf({ namespace: tool.name, name: member.name })),
      );
    case 'custom':
      return [customToolFunction(tool, tool.name)];
    case 'tool_search':
      return [toolSearchFunction(tool)];
    default: {
      const unreachable: never = tool;
      throw new Error(`Unhandled tool ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The input with each call of a namespaced function named as vendors know it (the history Codex replays). */
function withVendorCallNames(
  input: NonNullable<ResponsesRequestBody['input']>,
  toolNames: ResponsesToolMap,
): NonNullable<ResponsesRequestBody['input']> {
  if (typeof input === 'string') return input;
  return input.map((item) =>
    item.type === 'function_call' && item.namespace
      ? { ...item, name: toolNames.vendorNameOf({ namespace: item.namespace, name: item.name }) }
      : item,
  );
}

function canonicalToolChoice(choice: ResponsesRequestBody['tool_choice']): CanonicalToolChoice | null {
  if (choice === undefined) return null;
  if (typeof choice === 'object') return { type: 'tool', name: choice.name };
  return { type: choice };
}

function echoedToolChoice(choice: ResponsesRequestBody['tool_choice']): ResponsesToolChoice {
  if (choice === undefined) return 'auto';
  return typeof choice === 'object' ? { type: 'function', name: choice.name } : choice;
}

function normaliseTextFormat(format: NonNullable<ResponsesRequestBody['text']>['format']): ResponsesTextFormat {
  if (!format) return { type: 'text' };
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const normalised: ResponsesTextFormat = {
        type: 'json_schema',
        name: format.name,
        schema: format.schema,
        strict: format.strict ?? null,
      };
      if (format.description !== undefined) normalised.description = format.description;
      return normalised;
    }
    default: {
      const unreachable: never = format;
      throw new Error(`Unhandled text format ${JSON.stringify(unreachable)}`);
    }
  }
}

function canonicalOutputFormat(format: ResponsesTextFormat): CanonicalOutputFormat {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json-object' };
    case 'json_schema': {
      const canonical: CanonicalOutputFormat = {
        type: 'json-schema',
        name: format.name,
        schema: format.schema,
        strict: format.strict,
      };
      if (format.description !== undefined) canonical.description = format.description;
      return canonical;
    }
    default: {
      const unreachable: never = format;
      throw new Error(`Unhandled text format ${JSON.stringify(unreachable)}`);
    }
  }
}
