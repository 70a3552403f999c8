import type {
  CanonicalOutputFormat,
  CanonicalRequest,
  CanonicalTool,
  CanonicalToolChoice,
} from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';
import { validateProtocolBody } from '../shared/validate-protocol-body.js';
import { flattenNamespaceTools, type FlatToolNames } from './flatten-namespace-tools.js';
import { mapResponsesInput, type UnsealReasoning } from './map-responses-input.js';
import { refuseUnservedTools } from './refuse-unserved-tools.js';
import {
  responsesRequestFields,
  responsesRequestSchema,
  type responsesIncludeValues,
  type ResponsesRequestBody,
  type ResponsesToolParam,
} from './responses-request-schema.js';
import type {
  ResponseEcho,
  ResponsesFunctionTool,
  ResponsesNamespaceTool,
  ResponsesTextFormat,
  ResponsesToolChoice,
} from './responses-wire-types.js';

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
  /** top-level fields accepted but not acted on (e.g. `prompt_cache_key`, `user`), for the request log */
  ignoredFields: string[];
}

/** Item types of the description that name hosted tools or stored state, which translation cannot serve. */
const untranslatableItemTypes = new Set([
  'item_reference',
  'custom_tool_call',
  'custom_tool_call_output',
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

  const toolNames = flattenNamespaceTools(parsed.tools ?? []);
  const tools: CanonicalTool[] = (parsed.tools ?? []).flatMap((tool) =>
    tool.type === 'function'
      ? [canonicalToolOf(tool, tool.name)]
      : tool.tools.map((member) =>
          canonicalToolOf(member, toolNames.vendorNameOf({ namespace: tool.name, name: member.name })),
        ),
  );
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
        : mapResponsesInput(withVendorCallNames(parsed.input, toolNames), options.unsealReasoning),
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
    tools: (parsed.tools ?? []).map(echoedTool),
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

function canonicalToolOf(tool: FunctionToolParam, vendorName: string): CanonicalTool {
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
function echoedTool(tool: ResponsesToolParam): ResponsesFunctionTool | ResponsesNamespaceTool {
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
    default: {
      const unreachable: never = tool;
      throw new Error(`Unhandled tool ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The input with each call of a namespaced function named as vendors know it (the history Codex replays). */
function withVendorCallNames(
  input: NonNullable<ResponsesRequestBody['input']>,
  toolNames: FlatToolNames,
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
