// The simulated model behind /v1/responses: the chat side's scenarios (echo, tool results, scripted calls, JSON) as output items.
import type { ModelBehaviour } from './openai-simulator-behaviour.js';
import { invalidRequest } from './openai-simulator-errors.js';
import {
  encryptedContentPrefix,
  newItemId,
  type ContentPart,
  type FunctionCallItem,
  type MessageItem,
  type ReasoningItem,
  type ResponseItem,
} from './openai-simulator-responses-items.js';
import type { ResponsesRequest } from './openai-simulator-responses-request.js';
import { countWords, randomIdentifier, repeatWords, splitIntoWordPieces } from './openai-simulator-text.js';
import { scriptedToolTurnOf } from './scripted-tool-turn.js';

/** Token usage in the Responses shape. */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** What the model produced for one request. */
export interface GeneratedOutput {
  /** the output items in order, final (completed or, when cut, incomplete) */
  items: ResponseItem[];
  /** `incomplete` when max_output_tokens cut the answer */
  status: 'completed' | 'incomplete';
  /** null for `sim-no-usage` */
  usage: ResponsesUsage | null;
}

const outputTokensPerFunctionCall = 10;
let functionCallCounter = 0;

/** Generates the output for a request whose whole conversation (previous chain and this input) is `context`. */
export function generateOutput(
  request: ResponsesRequest,
  context: ResponseItem[],
  behaviour: ModelBehaviour,
): GeneratedOutput {
  checkToolPairing(context);
  const source = replySource(context);
  const reasoning = wantsReasoning(request) ? reasoningItem(request, source.text) : undefined;
  // `sim-reasoning-<N>` adds N hidden reasoning tokens (no summary item), as a reasoning model reports them.
  const hiddenReasoningTokens = behaviour.kind === 'reasoning' ? behaviour.reasoningTokens : 0;
  const reasoningTokens = (reasoning === undefined ? 0 : countWords(summaryText(reasoning))) + hiddenReasoningTokens;
  const items: ResponseItem[] = reasoning === undefined ? [] : [reasoning];
  let visibleTokens: number;
  let status: GeneratedOutput['status'] = 'completed';
  const scripted = scriptedToolTurnOf(
    source.text,
    request.tools.map((tool) => tool.name),
  );
  if (source.kind === 'user' && scripted?.kind !== 'answer' && shouldCallTools(request, context)) {
    const calls = makeFunctionCalls(request, source.text);
    items.push(...calls);
    visibleTokens = calls.length * outputTokensPerFunctionCall;
  } else {
    const fullText = replyText(request, source, behaviour);
    const budget =
      request.maxOutputTokens === null
        ? Number.POSITIVE_INFINITY
        : Math.max(0, request.maxOutputTokens - reasoningTokens);
    const pieces = splitIntoWordPieces(fullText);
    const text = pieces.length > budget ? pieces.slice(0, budget).join('').trimEnd() : fullText;
    if (pieces.length > budget) status = 'incomplete';
    if (text !== '' || status === 'completed')
      items.push(assistantMessage(text, status === 'incomplete' ? 'incomplete' : 'completed'));
    visibleTokens = countWords(text);
  }
  const usage =
    behaviour.kind === 'no-usage'
      ? null
      : responsesUsage(request, context, visibleTokens + reasoningTokens, reasoningTokens, behaviour);
  return { items, status, usage };
}

/** The text of a message or function output: its text parts joined with a space. */
export function itemText(item: ResponseItem): string {
  switch (item.type) {
    case 'message':
      return partsText(item.content);
    case 'function_call':
      return `${item.name} ${item.arguments}`;
    case 'function_call_output':
      return typeof item.output === 'string' ? item.output : partsText(item.output);
    case 'reasoning':
      return summaryText(item);
    default:
      return assertNever(item);
  }
}

/** Input tokens: words of the instructions and of each item (at least 1 each), plus 1 per image or file part. */
export function countInputTokens(instructions: string | null, context: ResponseItem[]): number {
  let total = instructions === null ? 0 : Math.max(1, countWords(instructions));
  for (const item of context) {
    total += Math.max(1, countWords(itemText(item)));
    if (item.type === 'message')
      total += item.content.filter((part) => part.type === 'input_image' || part.type === 'input_file').length;
  }
  return total;
}

/** What the reply answers: trailing function outputs, else the last user text. */
type ReplySource = { kind: 'tool-results'; text: string } | { kind: 'user'; text: string };

function replySource(context: ResponseItem[]): ReplySource {
  let start = context.length;
  while (start > 0 && context[start - 1]?.type === 'function_call_output') start--;
  const outputs = context.slice(start);
  if (outputs.length > 0) return { kind: 'tool-results', text: outputs.map(itemText).join('; ') };
  const lastUser = context.findLast((item): item is MessageItem => item.type === 'message' && item.role === 'user');
  return { kind: 'user', text: lastUser === undefined ? '' : partsText(lastUser.content) };
}

/** "Echo: <text>", "Tool results: <a>; <b>", or `{"echo": …}` when a JSON format was asked for. */
function replyText(request: ResponsesRequest, source: ReplySource, behaviour: ModelBehaviour): string {
  const formatType = request.text.format.type;
  const text =
    formatType === 'json_schema' || formatType === 'json_object'
      ? JSON.stringify({ echo: source.text })
      : `${source.kind === 'tool-results' ? 'Tool results: ' : 'Echo: '}${source.text}`;
  return behaviour.kind === 'paced' ? repeatWords(text, behaviour.chunkCount) : text;
}

function shouldCallTools(request: ResponsesRequest, context: ResponseItem[]): boolean {
  const last = context.at(-1);
  return request.tools.length > 0 && request.toolChoice !== 'none' && last?.type === 'message' && last.role === 'user';
}

function makeFunctionCalls(request: ResponsesRequest, query: string): FunctionCallItem[] {
  const choice = request.toolChoice;
  // A `sim-call` prompt (scripted-tool-turn.ts) calls only its tool, with its arguments.
  const scripted = scriptedToolTurnOf(
    query,
    request.tools.map((tool) => tool.name),
  );
  const called =
    scripted?.kind === 'call'
      ? request.tools.filter((tool) => tool.name === scripted.name).slice(0, 1)
      : typeof choice === 'object'
        ? request.tools.filter((tool) => tool.name === choice.name).slice(0, 1)
        : request.tools.slice(0, request.parallelToolCalls ? request.tools.length : 1);
  const argumentsText = scripted?.kind === 'call' ? scripted.argumentsText : JSON.stringify({ query });
  return called.map((tool) => ({
    id: newItemId('fc'),
    type: 'function_call',
    call_id: `call_${++functionCallCounter}${randomIdentifier().slice(0, 8)}`,
    ...(tool.namespace === undefined ? {} : { namespace: tool.namespace }),
    name: tool.name,
    arguments: argumentsText,
    status: 'completed',
  }));
}

function wantsReasoning(request: ResponsesRequest): boolean {
  return request.reasoningEffort !== null && request.reasoningEffort !== 'none';
}

/** A reasoning item whose summary says what it thought about; encrypted_content only when included. */
function reasoningItem(request: ResponsesRequest, topic: string): ReasoningItem {
  const item: ReasoningItem = {
    id: newItemId('rs'),
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: `Thinking about: ${topic}` }],
  };
  if (!request.include.includes('reasoning.encrypted_content')) return item;
  return { ...item, encrypted_content: `${encryptedContentPrefix}${Buffer.from(topic).toString('base64')}` };
}

function assistantMessage(text: string, status: MessageItem['status']): MessageItem {
  return {
    id: newItemId('msg'),
    type: 'message',
    role: 'assistant',
    status,
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

function responsesUsage(
  request: ResponsesRequest,
  context: ResponseItem[],
  outputTokens: number,
  reasoningTokens: number,
  behaviour: ModelBehaviour,
): ResponsesUsage {
  const inputTokens = countInputTokens(request.instructions, context);
  const cachedTokens = behaviour.kind === 'cached-prompt' ? Math.floor(inputTokens / 2) : 0;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: cachedTokens, cache_write_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
}

/** OpenAI refuses a function output without its call, and a call left without an output. */
function checkToolPairing(context: ResponseItem[]): void {
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const item of context) {
    if (item.type === 'function_call') calls.add(item.call_id);
    if (item.type !== 'function_call_output') continue;
    if (!calls.has(item.call_id))
      throw invalidRequest(`No tool call found for function call output with call_id ${item.call_id}.`, 'input', null);
    answered.add(item.call_id);
  }
  const unanswered = [...calls].find((callId) => !answered.has(callId));
  if (unanswered !== undefined)
    throw invalidRequest(`No tool output found for function call ${unanswered}.`, 'input', null);
}

function partsText(parts: ContentPart[]): string {
  return parts
    .filter((part) => (part.type === 'input_text' || part.type === 'output_text') && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join(' ');
}

function summaryText(item: ReasoningItem): string {
  return item.summary.map((part) => part.text).join(' ');
}

function assertNever(value: never): never {
  throw new Error(`unexpected item ${JSON.stringify(value)}`);
}
