// POST /v1/responses body: every top-level field checked as OpenAI checks it, read into a typed request.
import { invalidRequest } from './openai-simulator-errors.js';
import {
  invalidType,
  invalidValue,
  isJsonObject,
  missingParameter,
  optionalBoolean,
  optionalEnum,
  optionalObject,
  optionalString,
  rejectUnknownKeys,
  requiredString,
  unknownParameter,
  type JsonObject,
} from './openai-simulator-responses-fields.js';
import { readInputItems, type ItemLookup, type ResponseItem } from './openai-simulator-responses-items.js';
import { checkDecimalRange, checkIntegerRange, type RequestBody } from './openai-simulator-validation.js';

/** A function tool, flat as the Responses API has it, with OpenAI's defaults filled in (as echoed in the response). */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string | null;
  parameters: JsonObject | null;
  strict: boolean;
  /** the `namespace` tool it belongs to (not echoed: the echo shows the namespace tool itself) */
  namespace?: string;
}

/** A `namespace` tool as echoed: a named group of function tools whose calls name the namespace. */
export interface ResponsesNamespaceTool {
  type: 'namespace';
  name: string;
  description: string;
  tools: ResponsesFunctionTool[];
}

/** A `custom` or client-run `tool_search` tool (Codex sends both): echoed as sent, never called by the simulator. */
export interface ResponsesUncalledTool extends JsonObject {
  type: 'custom' | 'tool_search';
}

/** `tool_choice` as echoed in the response. */
export type ResponsesToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string };

/** A validated create-response request. */
export interface ResponsesRequest {
  model: string;
  /** this request's own input items, ids assigned */
  input: ResponseItem[];
  instructions: string | null;
  /** every function the model may call, those of namespaces included */
  tools: ResponsesFunctionTool[];
  /** `tools` as the client sent them (namespaces grouped), for the echo */
  echoedTools: Array<ResponsesFunctionTool | ResponsesNamespaceTool | ResponsesUncalledTool>;
  toolChoice: ResponsesToolChoice;
  parallelToolCalls: boolean;
  /** `text` as echoed: format (default `{type:"text"}`) and verbosity */
  text: { format: JsonObject; verbosity: string };
  /** `reasoning.effort`, null when not asked for */
  reasoningEffort: string | null;
  /** `reasoning.summary`, null when not asked for */
  reasoningSummary: string | null;
  maxOutputTokens: number | null;
  store: boolean;
  stream: boolean;
  /** false only when `stream_options.include_obfuscation` is false */
  includeObfuscation: boolean;
  previousResponseId: string | null;
  metadata: Record<string, string>;
  include: string[];
  truncation: 'auto' | 'disabled';
  temperature: number;
  topP: number;
  /** the raw body, for echoing the rarer fields */
  raw: RequestBody;
}

const knownFields = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_tool_calls',
  'text',
  'reasoning',
  'max_output_tokens',
  'store',
  'stream',
  'stream_options',
  'previous_response_id',
  'metadata',
  'include',
  'truncation',
  'temperature',
  'top_p',
  'top_logprobs',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'prompt_cache_options',
  'service_tier',
  'background',
  'conversation',
  'prompt',
  'moderation',
  'context_management',
]);
/** Fields OpenAI serves but this simulator does not: a non-empty value answers 400 rather than being ignored silently. */
const unsimulatedFields = ['conversation', 'prompt', 'context_management'] as const;
/** Chat Completions fields people send here by mistake, with OpenAI's pointer to the Responses equivalent. */
const movedFields: Record<string, string> = {
  response_format: 'text.format',
  max_tokens: 'max_output_tokens',
  max_completion_tokens: 'max_output_tokens',
};
const includeValues = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
] as const;
const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
const reasoningSummaries = ['auto', 'concise', 'detailed'] as const;
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const formatNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const functionToolKeys = new Set([
  'type',
  'name',
  'description',
  'parameters',
  'strict',
  'output_schema',
  'defer_loading',
  'allowed_callers',
]);
const namespaceToolKeys = new Set(['type', 'name', 'description', 'tools']);
const maximumMetadataPairs = 16;

/** Throws the 400 OpenAI would answer; `lookup` resolves `item_reference` items. */
export function validateResponsesRequest(body: RequestBody, lookup: ItemLookup): ResponsesRequest {
  for (const key of Object.keys(body)) {
    const moved = movedFields[key];
    if (moved !== undefined)
      throw invalidRequest(
        `Unsupported parameter: '${key}'. In the Responses API, this parameter has moved to '${moved}'.`,
        key,
        'unsupported_parameter',
      );
    if (!knownFields.has(key)) throw unknownParameter(key);
  }
  for (const field of unsimulatedFields)
    if (body[field] !== undefined && body[field] !== null)
      throw invalidRequest(`The simulator does not serve '${field}'.`, field, 'unsupported_parameter');
  if (body.background === true)
    throw invalidRequest("The simulator does not serve 'background'.", 'background', 'unsupported_parameter');
  const model = requiredString(body, 'model', 'model');
  if (body.input === undefined && body.previous_response_id === undefined) throw missingParameter('input');
  checkDecimalRange(body, 'temperature', 0, 2);
  checkDecimalRange(body, 'top_p', 0, 1);
  checkIntegerRange(body, 'top_logprobs', 0, 20);
  checkIntegerRange(body, 'max_tool_calls', 1);
  checkIntegerRange(body, 'max_output_tokens', 16);
  const stream = optionalBoolean(body, 'stream', 'stream') ?? false;
  const echoedTools = readTools(body.tools);
  const tools = echoedTools.flatMap((tool): ResponsesFunctionTool[] => {
    if (tool.type === 'namespace') return tool.tools.map((member) => ({ ...member, namespace: tool.name }));
    return tool.type === 'function' ? [tool] : [];
  });
  const reasoning = optionalObject(body, 'reasoning', 'reasoning') ?? {};
  rejectUnknownKeys(reasoning, new Set(['effort', 'summary', 'generate_summary', 'context', 'mode']), 'reasoning');
  for (const key of ['safety_identifier', 'prompt_cache_key', 'user', 'prompt_cache_retention'])
    optionalString(body, key, key);
  optionalEnum(body, 'service_tier', 'service_tier', ['auto', 'default', 'flex', 'scale', 'priority']);
  return {
    model,
    input: body.input === undefined ? [] : readInputItems(body.input, lookup),
    instructions: optionalString(body, 'instructions', 'instructions') ?? null,
    tools,
    echoedTools,
    toolChoice: readToolChoice(body.tool_choice, tools),
    parallelToolCalls: optionalBoolean(body, 'parallel_tool_calls', 'parallel_tool_calls') ?? true,
    text: readText(body),
    reasoningEffort: optionalEnum(reasoning, 'effort', 'reasoning.effort', reasoningEfforts) ?? null,
    reasoningSummary: optionalEnum(reasoning, 'summary', 'reasoning.summary', reasoningSummaries) ?? null,
    maxOutputTokens: typeof body.max_output_tokens === 'number' ? body.max_output_tokens : null,
    store: optionalBoolean(body, 'store', 'store') ?? true,
    stream,
    includeObfuscation: readStreamOptions(body, stream),
    previousResponseId: optionalString(body, 'previous_response_id', 'previous_response_id') ?? null,
    metadata: readMetadata(body.metadata),
    include: readInclude(body.include),
    truncation: optionalEnum(body, 'truncation', 'truncation', ['auto', 'disabled']) ?? 'disabled',
    temperature: typeof body.temperature === 'number' ? body.temperature : 1,
    topP: typeof body.top_p === 'number' ? body.top_p : 1,
    raw: body,
  };
}

function readTools(value: unknown): Array<ResponsesFunctionTool | ResponsesNamespaceTool | ResponsesUncalledTool> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidType('tools', 'an array', value);
  return value.map((tool, index) => {
    const param = `tools[${index}]`;
    if (!isJsonObject(tool)) throw invalidType(param, 'an object', tool);
    const type = requiredString(tool, 'type', `${param}.type`);
    if (type === 'namespace') return readNamespaceTool(tool, param);
    if (type === 'custom') {
      requiredString(tool, 'name', `${param}.name`);
      return { ...tool, type };
    }
    if (type === 'tool_search') return { ...tool, type };
    return readFunctionTool(tool, param);
  });
}

function readNamespaceTool(tool: JsonObject, param: string): ResponsesNamespaceTool {
  rejectUnknownKeys(tool, namespaceToolKeys, param);
  const members = tool.tools;
  if (!Array.isArray(members) || members.length === 0)
    throw invalidRequest(`Invalid '${param}.tools': expected a non-empty array.`, `${param}.tools`, 'invalid_value');
  return {
    type: 'namespace',
    name: requiredString(tool, 'name', `${param}.name`),
    description: requiredString(tool, 'description', `${param}.description`),
    tools: members.map((member, index) => {
      const memberParam = `${param}.tools[${index}]`;
      if (!isJsonObject(member)) throw invalidType(memberParam, 'an object', member);
      return readFunctionTool(member, memberParam);
    }),
  };
}

function readFunctionTool(tool: JsonObject, param: string): ResponsesFunctionTool {
  const type = requiredString(tool, 'type', `${param}.type`);
  if (type !== 'function')
    throw invalidRequest(
      `The simulator serves only function and namespace tools, not '${type}'.`,
      `${param}.type`,
      'unsupported_parameter',
    );
  rejectUnknownKeys(tool, functionToolKeys, param);
  const name = requiredString(tool, 'name', `${param}.name`);
  if (!toolNamePattern.test(name)) {
    throw invalidRequest(
      `Invalid '${param}.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      `${param}.name`,
      'invalid_value',
    );
  }
  const parameters = optionalObject(tool, 'parameters', `${param}.parameters`) ?? null;
  const strict = optionalBoolean(tool, 'strict', `${param}.strict`) ?? true;
  return {
    type: 'function',
    name,
    description: optionalString(tool, 'description', `${param}.description`) ?? null,
    parameters,
    strict,
  };
}

function readToolChoice(value: unknown, tools: ResponsesFunctionTool[]): ResponsesToolChoice {
  if (value === undefined || value === null) return 'auto';
  if (typeof value === 'string') {
    if (value === 'none' || value === 'auto' || value === 'required') return value;
    throw invalidValue('tool_choice', value, ['none', 'auto', 'required']);
  }
  if (!isJsonObject(value)) throw invalidType('tool_choice', 'one of a string or object', value);
  rejectUnknownKeys(value, new Set(['type', 'name']), 'tool_choice');
  const type = requiredString(value, 'type', 'tool_choice.type');
  if (type !== 'function')
    throw invalidRequest(
      `The simulator serves only function tool choices, not '${type}'.`,
      'tool_choice.type',
      'unsupported_parameter',
    );
  const name = requiredString(value, 'name', 'tool_choice.name');
  if (!tools.some((tool) => tool.name === name))
    throw invalidRequest(`Tool choice '${name}' not found in 'tools' parameter.`, 'tool_choice', null);
  return { type: 'function', name };
}

function readText(body: RequestBody): ResponsesRequest['text'] {
  const text = optionalObject(body, 'text', 'text') ?? {};
  rejectUnknownKeys(text, new Set(['format', 'verbosity']), 'text');
  const verbosity = optionalEnum(text, 'verbosity', 'text.verbosity', ['low', 'medium', 'high']) ?? 'medium';
  const format = optionalObject(text, 'format', 'text.format') ?? { type: 'text' };
  const type = requiredString(format, 'type', 'text.format.type');
  if (type === 'text' || type === 'json_object') {
    rejectUnknownKeys(format, new Set(['type']), 'text.format');
    return { format: { type }, verbosity };
  }
  if (type !== 'json_schema') throw invalidValue('text.format.type', type, ['text', 'json_schema', 'json_object']);
  rejectUnknownKeys(format, new Set(['type', 'name', 'schema', 'strict', 'description']), 'text.format');
  const name = requiredString(format, 'name', 'text.format.name');
  if (!formatNamePattern.test(name))
    throw invalidRequest(
      "Invalid 'text.format.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
      'text.format.name',
      'invalid_value',
    );
  const schema = optionalObject(format, 'schema', 'text.format.schema');
  if (schema === undefined) throw missingParameter('text.format.schema');
  const strict = optionalBoolean(format, 'strict', 'text.format.strict') ?? null;
  const description = optionalString(format, 'description', 'text.format.description');
  return { format: { type, name, schema, strict, ...(description === undefined ? {} : { description }) }, verbosity };
}

function readStreamOptions(body: RequestBody, stream: boolean): boolean {
  const options = optionalObject(body, 'stream_options', 'stream_options');
  if (options === undefined) return true;
  if (!stream)
    throw invalidRequest(
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      'stream_options',
      null,
    );
  rejectUnknownKeys(options, new Set(['include_obfuscation']), 'stream_options');
  return optionalBoolean(options, 'include_obfuscation', 'stream_options.include_obfuscation') ?? true;
}

function readMetadata(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isJsonObject(value)) throw invalidType('metadata', 'an object', value);
  const entries = Object.entries(value);
  if (entries.length > maximumMetadataPairs) {
    throw invalidRequest(
      `Invalid 'metadata': too many properties. Expected an object with at most ${maximumMetadataPairs} properties, but got an object with ${entries.length} properties instead.`,
      'metadata',
      'object_above_max_properties',
    );
  }
  for (const [key, entry] of entries) {
    if (typeof entry !== 'string') throw invalidType(`metadata.${key}`, 'a string', entry);
    if (key.length > 64)
      throw invalidRequest(
        `Invalid 'metadata': key '${key}' is longer than 64 characters.`,
        'metadata',
        'invalid_value',
      );
    if (entry.length > 512)
      throw invalidRequest(
        `Invalid 'metadata.${key}': string too long. Expected a string with maximum length 512.`,
        `metadata.${key}`,
        'string_above_max_length',
      );
  }
  return value as Record<string, string>;
}

function readInclude(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidType('include', 'an array', value);
  return value.map((entry, index) => {
    if (typeof entry !== 'string' || !(includeValues as readonly string[]).includes(entry))
      throw invalidValue(`include[${index}]`, entry, includeValues);
    return entry;
  });
}
