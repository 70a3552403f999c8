// POST /v1/chat/completions: deterministic echo replies or tool calls, as one JSON body or a chunk stream.
import type { ModelBehaviour } from './openai-simulator-behaviour.js';
import {
  countPromptTokens,
  functionToolsOf,
  messageText,
  namedToolChoice,
  validateChatRequest,
  type ChatMessage,
} from './openai-simulator-chat-request.js';
import type { EndpointHandler } from './openai-simulator-endpoint.js';
import { interleaveChunks, type EventStreamPlan } from './openai-simulator-stream.js';
import { scriptedToolTurnOf, type ScriptedToolTurn } from './scripted-tool-turn.js';
import {
  applyStopAndLimit,
  countWords,
  maximumTokensOf,
  newResponseIdentity,
  repeatWords,
  splitIntoWordPieces,
  systemFingerprint,
  type FinishReason,
  type ResponseIdentity,
} from './openai-simulator-text.js';
import { choiceCountOf, includesStreamUsage, type RequestBody } from './openai-simulator-validation.js';

/** One tool call the simulated model makes. */
interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What one choice contains: text, or tool calls. */
type ChoiceOutput =
  { kind: 'text'; text: string; finishReason: FinishReason } | { kind: 'tool_calls'; calls: ToolCall[] };

/** Token usage in OpenAI's chat shape. */
interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

const completionTokensPerToolCall = 10;
const minimumArgumentChunks = 3;
const maximumArgumentChunkLength = 8;
let toolCallCounter = 0;

/** Answers a chat completion request. */
export const handleChatCompletion: EndpointHandler = ({ body, behaviour }) => {
  const messages = validateChatRequest(body);
  const outputs = Array.from({ length: choiceCountOf(body) }, () => generateChoice(body, messages, behaviour));
  const usage = behaviour.kind === 'no-usage' ? null : chatUsage(countPromptTokens(messages), outputs, behaviour);
  const identity = newResponseIdentity('chatcmpl', body.model);
  if (body.stream !== true) return { kind: 'json', body: chatResponse(identity, outputs, usage) };
  return { kind: 'stream', plan: chatStreamPlan(identity, outputs, includesStreamUsage(body) ? usage : null) };
};

function generateChoice(body: RequestBody, messages: ChatMessage[], behaviour: ModelBehaviour): ChoiceOutput {
  if (shouldCallTools(body, messages)) return { kind: 'tool_calls', calls: makeToolCalls(body, messages) };
  const generated = applyStopAndLimit(replyText(body, messages, behaviour), body.stop, maximumTokensOf(body));
  return { kind: 'text', text: generated.text, finishReason: generated.finishReason };
}

/** "Echo: <last user text>", "Tool results: <a>; <b>", or `{"echo": …}` in JSON mode. */
function replyText(body: RequestBody, messages: ChatMessage[], behaviour: ModelBehaviour): string {
  const trailingToolResults = trailingToolMessages(messages).map(messageText);
  const source = trailingToolResults.length > 0 ? trailingToolResults.join('; ') : lastUserText(messages);
  const prefix = trailingToolResults.length > 0 ? 'Tool results: ' : 'Echo: ';
  const text = wantsJson(body) ? JSON.stringify({ echo: source }) : prefix + source;
  return behaviour.kind === 'paced' ? repeatWords(text, behaviour.chunkCount) : text;
}

/** The tool results since the model's last turn; a client may add a user text after them (Claude Code does). */
function trailingToolMessages(messages: ChatMessage[]): ChatMessage[] {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  return messages.slice(lastAssistant + 1).filter((message) => message.role === 'tool');
}

function lastUserText(messages: ChatMessage[]): string {
  const lastUser = messages.findLast((message) => message.role === 'user') ?? messages.at(-1);
  return lastUser ? messageText(lastUser) : '';
}

function wantsJson(body: RequestBody): boolean {
  const type = (body.response_format as { type?: unknown } | null | undefined)?.type;
  return type === 'json_object' || type === 'json_schema';
}

function shouldCallTools(body: RequestBody, messages: ChatMessage[]): boolean {
  return (
    functionToolsOf(body).length > 0 &&
    messages.at(-1)?.role === 'user' &&
    trailingToolMessages(messages).length === 0 &&
    body.tool_choice !== 'none' &&
    scriptedTurn(body, messages)?.kind !== 'answer'
  );
}

/** What a `sim-call` / `sim-answer` prompt scripts (scripted-tool-turn.ts). */
function scriptedTurn(body: RequestBody, messages: ChatMessage[]): ScriptedToolTurn | undefined {
  return scriptedToolTurnOf(
    lastUserText(messages),
    functionToolsOf(body).map((tool) => tool.name),
  );
}

function makeToolCalls(body: RequestBody, messages: ChatMessage[]): ToolCall[] {
  const scripted = scriptedTurn(body, messages);
  if (scripted?.kind === 'call')
    return [{ id: `call_${++toolCallCounter}`, name: scripted.name, arguments: scripted.argumentsText }];
  const tools = functionToolsOf(body);
  const namedTool = namedToolChoice(body);
  const chosen =
    namedTool !== undefined
      ? [namedTool]
      : tools.slice(0, body.parallel_tool_calls === false ? 1 : tools.length).map((tool) => tool.name);
  const argumentsText = JSON.stringify({ query: lastUserText(messages) });
  return chosen.map((name) => ({ id: `call_${++toolCallCounter}`, name, arguments: argumentsText }));
}

function chatUsage(promptTokens: number, outputs: ChoiceOutput[], behaviour: ModelBehaviour): ChatUsage {
  const completionTokens = outputs.reduce(
    (total, output) =>
      total + (output.kind === 'text' ? countWords(output.text) : output.calls.length * completionTokensPerToolCall),
    0,
  );
  // A reasoning model counts its hidden reasoning in the output, produced before the first visible token.
  const reasoningTokens = behaviour.kind === 'reasoning' ? behaviour.reasoningTokens : 0;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens + reasoningTokens,
    total_tokens: promptTokens + completionTokens + reasoningTokens,
    prompt_tokens_details: {
      cached_tokens: behaviour.kind === 'cached-prompt' ? Math.floor(promptTokens / 2) : 0,
      audio_tokens: 0,
    },
    completion_tokens_details: {
      reasoning_tokens: reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function chatResponse(identity: ResponseIdentity, outputs: ChoiceOutput[], usage: ChatUsage | null) {
  const response = {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: outputs.map((output, index) => ({
      index,
      message: responseMessage(output),
      logprobs: null,
      finish_reason: finishReasonOf(output),
    })),
    service_tier: 'default',
    system_fingerprint: systemFingerprint,
  };
  return usage === null ? response : { ...response, usage };
}

function responseMessage(output: ChoiceOutput) {
  if (output.kind === 'text') return { role: 'assistant', content: output.text, refusal: null, annotations: [] };
  const toolCalls = output.calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return { role: 'assistant', content: null, refusal: null, annotations: [], tool_calls: toolCalls };
}

function finishReasonOf(output: ChoiceOutput): FinishReason {
  return output.kind === 'text' ? output.finishReason : 'tool_calls';
}

/** The chunks of a streamed chat completion; `usage` is null unless the client asked for it. */
function chatStreamPlan(identity: ResponseIdentity, outputs: ChoiceOutput[], usage: ChatUsage | null): EventStreamPlan {
  const includeUsage = usage !== null;
  const chunk = (index: number, delta: object, finishReason: FinishReason | null = null) =>
    chatChunk(identity, [{ index, delta, logprobs: null, finish_reason: finishReason }], includeUsage);
  const leadingChunks = outputs.map((output, index) =>
    chunk(index, { role: 'assistant', content: output.kind === 'text' ? '' : null, refusal: null }),
  );
  const contentChunks = interleaveChunks(
    outputs.map((output, index) => contentDeltas(output).map((delta) => chunk(index, delta))),
  );
  const trailingChunks: unknown[] = outputs.map((output, index) => chunk(index, {}, finishReasonOf(output)));
  if (usage !== null) trailingChunks.push({ ...chatChunk(identity, [], true), usage });
  return { leadingChunks, contentChunks, trailingChunks };
}

function chatChunk(identity: ResponseIdentity, choices: unknown[], includeUsage: boolean) {
  const chunk = {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    service_tier: 'default',
    system_fingerprint: systemFingerprint,
    choices,
  };
  return includeUsage ? { ...chunk, usage: null } : chunk;
}

/** The deltas after the role chunk: one per word, or per tool call a header then its arguments in pieces. */
function contentDeltas(output: ChoiceOutput): object[] {
  if (output.kind === 'text') return splitIntoWordPieces(output.text).map((piece) => ({ content: piece }));
  return output.calls.flatMap((call, index) => [
    { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
    ...splitArguments(call.arguments).map((piece) => ({ tool_calls: [{ index, function: { arguments: piece } }] })),
  ]);
}

function splitArguments(argumentsText: string): string[] {
  const pieceLength = Math.max(
    1,
    Math.min(maximumArgumentChunkLength, Math.floor(argumentsText.length / minimumArgumentChunks)),
  );
  const pieces: string[] = [];
  for (let start = 0; start < argumentsText.length; start += pieceLength)
    pieces.push(argumentsText.slice(start, start + pieceLength));
  return pieces;
}
