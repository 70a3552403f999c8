// Responses API input items: validated as OpenAI does, then normalised to the stored shape (every item gets an id).
import { invalidRequest } from './openai-simulator-errors.js';
import {
  invalidType,
  invalidValue,
  isJsonObject,
  missingParameter,
  optionalEnum,
  optionalString,
  rejectUnknownKeys,
  requiredString,
  type JsonObject,
} from './openai-simulator-responses-fields.js';
import { randomIdentifier } from './openai-simulator-text.js';

/** One content part of a message, as sent (`input_text`, `input_image`, `input_file`, `output_text`, `refusal`). */
export type ContentPart = JsonObject & { type: string };

/** A message item: input of any role, or an assistant answer. */
export interface MessageItem {
  id: string;
  type: 'message';
  role: 'user' | 'assistant' | 'system' | 'developer';
  /** `in_progress` while streaming, `incomplete` when cut by max_output_tokens */
  status: 'in_progress' | 'completed' | 'incomplete';
  content: ContentPart[];
}

/** A function call the model made. */
export interface FunctionCallItem {
  id: string;
  type: 'function_call';
  call_id: string;
  /** the `namespace` tool of the called function, when it belongs to one */
  namespace?: string;
  name: string;
  /** the arguments as a JSON string */
  arguments: string;
  status: 'in_progress' | 'completed';
}

/** The client's answer to a function call. */
export interface FunctionCallOutputItem {
  id: string;
  type: 'function_call_output';
  call_id: string;
  output: string | ContentPart[];
  status: 'completed';
}

/** A reasoning item: summaries and, when asked for, the opaque `encrypted_content`. */
export interface ReasoningItem {
  id: string;
  type: 'reasoning';
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string | null;
  status?: 'in_progress' | 'completed';
}

/** Any item the simulator stores and replays. */
export type ResponseItem = MessageItem | FunctionCallItem | FunctionCallOutputItem | ReasoningItem;

/** Finds a stored item for an `item_reference`. */
export type ItemLookup = (id: string) => ResponseItem | undefined;

/** The prefix of every `encrypted_content` the simulator issues; anything else fails to decrypt, as at OpenAI. */
export const encryptedContentPrefix = 'gAAAAsim';

const itemTypes = ['message', 'function_call', 'function_call_output', 'reasoning', 'item_reference'] as const;
const roles = ['user', 'assistant', 'system', 'developer'] as const;
const inputPartTypes = ['input_text', 'input_image', 'input_file'] as const;
const assistantPartTypes = ['output_text', 'refusal'] as const;
const imageDetails = ['low', 'high', 'auto', 'original'] as const;
const maximumCallIdLength = 64;

const messageKeys = new Set(['type', 'role', 'content', 'id', 'status', 'phase']);
const functionCallKeys = new Set(['type', 'id', 'call_id', 'name', 'arguments', 'status', 'namespace', 'caller']);
const functionCallOutputKeys = new Set(['type', 'id', 'call_id', 'output', 'status', 'name']);
const reasoningKeys = new Set(['type', 'id', 'summary', 'content', 'encrypted_content', 'status']);
const itemReferenceKeys = new Set(['type', 'id']);

/** A fresh item id with OpenAI's prefix (`msg`, `fc`, `fco`, `rs`). */
export function newItemId(prefix: string): string {
  return `${prefix}_${randomIdentifier()}${randomIdentifier()}`;
}

/** Validates `input` (a string or an item list) and returns the items with ids assigned. */
export function readInputItems(input: unknown, lookup: ItemLookup): ResponseItem[] {
  if (typeof input === 'string') return [textMessage('user', input)];
  if (!Array.isArray(input)) throw invalidType('input', 'one of a string or array of input items', input);
  return input.map((item, index) => readItem(item, `input[${index}]`, lookup));
}

/** A completed message holding one text part (`input_text`, or `output_text` for the assistant). */
export function textMessage(role: MessageItem['role'], text: string): MessageItem {
  const part: ContentPart =
    role === 'assistant' ? { type: 'output_text', text, annotations: [], logprobs: [] } : { type: 'input_text', text };
  return { id: newItemId('msg'), type: 'message', role, status: 'completed', content: [part] };
}

function readItem(value: unknown, param: string, lookup: ItemLookup): ResponseItem {
  if (!isJsonObject(value)) throw invalidType(param, 'an object', value);
  const type = value.type === undefined && 'role' in value ? 'message' : value.type;
  if (typeof type !== 'string') throw missingParameter(`${param}.type`);
  if (!(itemTypes as readonly string[]).includes(type)) throw invalidValue(`${param}.type`, type, itemTypes);
  switch (type as (typeof itemTypes)[number]) {
    case 'message':
      return readMessage(value, param);
    case 'function_call':
      return readFunctionCall(value, param);
    case 'function_call_output':
      return readFunctionCallOutput(value, param);
    case 'reasoning':
      return readReasoning(value, param);
    case 'item_reference':
      return readItemReference(value, param, lookup);
    default:
      return assertNever(type as never);
  }
}

function readMessage(value: JsonObject, param: string): MessageItem {
  rejectUnknownKeys(value, messageKeys, param);
  const role = optionalEnum(value, 'role', `${param}.role`, roles);
  if (role === undefined) throw missingParameter(`${param}.role`);
  const content = value.content;
  if (typeof content === 'string')
    return { ...textMessage(role, content), id: optionalString(value, 'id', `${param}.id`) ?? newItemId('msg') };
  if (!Array.isArray(content))
    throw invalidType(`${param}.content`, 'one of a string or array of input content items', content);
  const allowedParts = role === 'assistant' ? assistantPartTypes : inputPartTypes;
  const parts = content.map((part, index) => readContentPart(part, `${param}.content[${index}]`, allowedParts));
  return {
    id: optionalString(value, 'id', `${param}.id`) ?? newItemId('msg'),
    type: 'message',
    role,
    status: 'completed',
    content: parts,
  };
}

function readContentPart(value: unknown, param: string, allowed: readonly string[]): ContentPart {
  if (!isJsonObject(value)) throw invalidType(param, 'an object', value);
  const type = requiredString(value, 'type', `${param}.type`);
  if (!allowed.includes(type)) throw invalidValue(`${param}.type`, type, allowed);
  if (type === 'input_text' || type === 'output_text') requiredString(value, 'text', `${param}.text`);
  if (type === 'output_text') return { annotations: [], logprobs: [], ...value, type };
  if (type === 'refusal') requiredString(value, 'refusal', `${param}.refusal`);
  if (type === 'input_image') checkImagePart(value, param);
  if (type === 'input_file') checkFilePart(value, param);
  return { ...value, type };
}

function checkImagePart(part: JsonObject, param: string): void {
  optionalEnum(part, 'detail', `${param}.detail`, imageDetails);
  const url = optionalString(part, 'image_url', `${param}.image_url`);
  if (part.file_id !== undefined && part.file_id !== null)
    throw invalidRequest(`Invalid '${param}.file_id': file not found.`, `${param}.file_id`, 'invalid_value');
  if (url === undefined)
    throw invalidRequest(
      `Invalid '${param}': one of 'image_url' or 'file_id' must be provided.`,
      param,
      'missing_required_parameter',
    );
  if (!/^(https?:\/\/|data:image\/)/.test(url))
    throw invalidRequest(
      `Invalid '${param}.image_url'. Expected a valid URL, but got a value with an invalid format.`,
      `${param}.image_url`,
      'invalid_value',
    );
}

function checkFilePart(part: JsonObject, param: string): void {
  if (part.file_id !== undefined && part.file_id !== null)
    throw invalidRequest(`Invalid '${param}.file_id': file not found.`, `${param}.file_id`, 'invalid_value');
  const data = optionalString(part, 'file_data', `${param}.file_data`);
  const url = optionalString(part, 'file_url', `${param}.file_url`);
  if (data === undefined && url === undefined)
    throw invalidRequest(
      `Invalid '${param}': one of 'file_id', 'file_data' or 'file_url' must be provided.`,
      param,
      'missing_required_parameter',
    );
  if (data !== undefined && optionalString(part, 'filename', `${param}.filename`) === undefined)
    throw missingParameter(`${param}.filename`);
}

function readFunctionCall(value: JsonObject, param: string): FunctionCallItem {
  rejectUnknownKeys(value, functionCallKeys, param);
  return {
    id: optionalString(value, 'id', `${param}.id`) ?? newItemId('fc'),
    type: 'function_call',
    call_id: readCallId(value, param),
    ...optionalNamespace(value, param),
    name: requiredString(value, 'name', `${param}.name`),
    arguments: requiredString(value, 'arguments', `${param}.arguments`),
    status: 'completed',
  };
}

function optionalNamespace(value: JsonObject, param: string): { namespace?: string } {
  const namespace = optionalString(value, 'namespace', `${param}.namespace`);
  return namespace === undefined || namespace === null ? {} : { namespace };
}

function readFunctionCallOutput(value: JsonObject, param: string): FunctionCallOutputItem {
  rejectUnknownKeys(value, functionCallOutputKeys, param);
  const output = value.output;
  if (output === undefined || output === null) throw missingParameter(`${param}.output`);
  const parts = Array.isArray(output)
    ? output.map((part, index) => readContentPart(part, `${param}.output[${index}]`, inputPartTypes))
    : undefined;
  if (parts === undefined && typeof output !== 'string')
    throw invalidType(`${param}.output`, 'one of a string or array of content items', output);
  return {
    id: optionalString(value, 'id', `${param}.id`) ?? newItemId('fco'),
    type: 'function_call_output',
    call_id: readCallId(value, param),
    output: parts ?? (output as string),
    status: 'completed',
  };
}

function readCallId(value: JsonObject, param: string): string {
  const callId = requiredString(value, 'call_id', `${param}.call_id`);
  if (callId.length > maximumCallIdLength) {
    throw invalidRequest(
      `Invalid '${param}.call_id': string too long. Expected a string with maximum length ${maximumCallIdLength}, but got a string with length ${callId.length} instead.`,
      `${param}.call_id`,
      'string_above_max_length',
    );
  }
  return callId;
}

function readReasoning(value: JsonObject, param: string): ReasoningItem {
  rejectUnknownKeys(value, reasoningKeys, param);
  const id = requiredString(value, 'id', `${param}.id`);
  if (!Array.isArray(value.summary))
    throw value.summary === undefined
      ? missingParameter(`${param}.summary`)
      : invalidType(`${param}.summary`, 'an array', value.summary);
  const summary = value.summary.map((part, index) => {
    if (!isJsonObject(part) || part.type !== 'summary_text')
      throw invalidValue(`${param}.summary[${index}].type`, isJsonObject(part) ? part.type : part, ['summary_text']);
    return { type: 'summary_text' as const, text: requiredString(part, 'text', `${param}.summary[${index}].text`) };
  });
  const encrypted = optionalString(value, 'encrypted_content', `${param}.encrypted_content`);
  if (encrypted !== undefined && !encrypted.startsWith(encryptedContentPrefix)) {
    throw invalidRequest(
      'The encrypted content for item could not be verified. Reason: Encrypted content could not be decrypted or parsed.',
      `${param}.encrypted_content`,
      'invalid_encrypted_content',
    );
  }
  return encrypted === undefined
    ? { id, type: 'reasoning', summary }
    : { id, type: 'reasoning', summary, encrypted_content: encrypted };
}

function readItemReference(value: JsonObject, param: string, lookup: ItemLookup): ResponseItem {
  rejectUnknownKeys(value, itemReferenceKeys, param);
  const id = requiredString(value, 'id', `${param}.id`);
  const item = lookup(id);
  if (item === undefined) throw invalidRequest(`Item with id '${id}' not found.`, `${param}.id`, 'invalid_value');
  return item;
}

function assertNever(value: never): never {
  throw new Error(`unexpected item type ${String(value)}`);
}
