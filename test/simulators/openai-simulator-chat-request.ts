// Chat completions input: validation like OpenAI's, and reading the messages the reply is built from.
import { invalidRequest } from './openai-simulator-errors.js';
import { checkChatModelLimits } from './openai-simulator-model-limits.js';
import { countWords } from './openai-simulator-text.js';
import { checkSamplingFields, requireField, type RequestBody } from './openai-simulator-validation.js';

/** One chat message as the simulator reads it. */
export interface ChatMessage {
  /** system, developer, user, assistant or tool */
  role: string;
  /** a string, an array of content parts, or null */
  content?: unknown;
  /** the assistant's tool calls */
  tool_calls?: Array<{ id?: unknown }>;
  /** for tool messages: the call this answers */
  tool_call_id?: unknown;
}

/** A function tool the model may call. */
export interface ChatTool {
  /** the function's name */
  name: string;
}

const allowedRoles = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/** Throws the 400 OpenAI would answer for an invalid chat request; returns the messages when valid. */
export function validateChatRequest(body: RequestBody): ChatMessage[] {
  requireField(body, 'model');
  const messages = validateMessages(body.messages);
  messages.forEach((message, index) => validateRole(message, index));
  validateToolMessages(messages);
  checkSamplingFields(body);
  validateToolChoice(body);
  checkChatModelLimits(body);
  return messages;
}

/** The text of a message's content: text parts joined with a space; other parts are skipped. */
export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join(' ');
}

/** Prompt tokens: words of each message (at least 1 per message) plus 1 per non-text content part (images, audio). */
export function countPromptTokens(messages: ChatMessage[]): number {
  let total = 0;
  for (const message of messages) {
    total += Math.max(1, countWords(messageText(message)));
    if (Array.isArray(message.content)) total += message.content.filter((part) => part?.type !== 'text').length;
  }
  return total;
}

/** The function tools listed in the request. */
export function functionToolsOf(body: RequestBody): ChatTool[] {
  if (!Array.isArray(body.tools)) return [];
  return body.tools
    .map((tool) => (tool as { function?: { name?: unknown } } | null)?.function?.name)
    .filter((name): name is string => typeof name === 'string')
    .map((name) => ({ name }));
}

/** The function named by `tool_choice: {type: "function", function: {name}}`, if any. */
export function namedToolChoice(body: RequestBody): string | undefined {
  const choice = body.tool_choice as { function?: { name?: unknown } } | undefined | null | string;
  if (typeof choice !== 'object' || choice === null) return undefined;
  const name = choice.function?.name;
  return typeof name === 'string' ? name : undefined;
}

function validateMessages(messages: unknown): ChatMessage[] {
  if (messages === undefined || messages === null) {
    throw invalidRequest("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  }
  if (!Array.isArray(messages)) {
    throw invalidRequest(
      "Invalid type for 'messages': expected an array of objects, but got a value instead.",
      'messages',
      'invalid_type',
    );
  }
  if (messages.length === 0) {
    throw invalidRequest(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  }
  return messages as ChatMessage[];
}

function validateRole(message: ChatMessage, index: number): void {
  const param = `messages[${index}].role`;
  if (typeof message !== 'object' || message === null || message.role === undefined) {
    throw invalidRequest(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
  }
  if (allowedRoles.has(message.role)) return;
  throw invalidRequest(
    `Invalid value: '${String(message.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
    param,
    'invalid_value',
  );
}

/** Each tool message must answer a tool call made by an earlier assistant message. */
function validateToolMessages(messages: ChatMessage[]): void {
  const knownCallIds = new Set<unknown>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) knownCallIds.add(call?.id);
    }
    if (message.role !== 'tool') return;
    if (knownCallIds.size === 0) {
      throw invalidRequest(
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        `messages.[${index}].role`,
      );
    }
    if (!knownCallIds.has(message.tool_call_id)) {
      throw invalidRequest(
        `Invalid parameter: 'tool_call_id' of '${String(message.tool_call_id)}' not found in 'tool_calls' of previous message.`,
        `messages.[${index}].tool_call_id`,
      );
    }
  });
}

function validateToolChoice(body: RequestBody): void {
  const name = namedToolChoice(body);
  if (name === undefined || functionToolsOf(body).some((tool) => tool.name === name)) return;
  throw invalidRequest(
    `Invalid value for 'tool_choice': 'tool_choice' refers to '${name}' but '${name}' is not in 'tools'.`,
    'tool_choice',
  );
}
