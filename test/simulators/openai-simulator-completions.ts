// POST /v1/completions (legacy): "Echo: <prompt>" per prompt and per `n`, as one JSON body or a chunk stream.
import type { EndpointHandler } from './openai-simulator-endpoint.js';
import { invalidRequest } from './openai-simulator-errors.js';
import { interleaveChunks, type EventStreamPlan } from './openai-simulator-stream.js';
import {
  applyStopAndLimit,
  countWords,
  maximumTokensOf,
  newResponseIdentity,
  repeatWords,
  splitIntoWordPieces,
  systemFingerprint,
  type GeneratedText,
  type ResponseIdentity,
} from './openai-simulator-text.js';
import {
  checkSamplingFields,
  choiceCountOf,
  includesStreamUsage,
  requireField,
  type RequestBody,
} from './openai-simulator-validation.js';

/** Token usage in OpenAI's legacy completion shape. */
interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Answers a legacy completion request; like OpenAI, choice `index` = prompt index × n + sample index. */
export const handleCompletion: EndpointHandler = ({ body, behaviour }) => {
  requireField(body, 'model');
  const prompts = promptsOf(body);
  checkSamplingFields(body);
  const choiceCount = choiceCountOf(body);
  const outputs = prompts.flatMap((prompt) => {
    const text = behaviour.kind === 'paced' ? repeatWords(`Echo: ${prompt}`, behaviour.chunkCount) : `Echo: ${prompt}`;
    const generated = applyStopAndLimit(text, body.stop, maximumTokensOf(body));
    return Array.from({ length: choiceCount }, () => generated);
  });
  const usage = completionUsage(prompts, outputs);
  const identity = newResponseIdentity('cmpl', body.model);
  if (body.stream !== true) return { kind: 'json', body: completionResponse(identity, outputs, usage) };
  return { kind: 'stream', plan: completionStreamPlan(identity, outputs, includesStreamUsage(body) ? usage : null) };
};

/** The prompts as texts: a string, strings, token ids, or arrays of token ids (ids joined with spaces). */
function promptsOf(body: RequestBody): string[] {
  const prompt = body.prompt;
  if (prompt === undefined || prompt === null) {
    throw invalidRequest("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  }
  if (typeof prompt === 'string') return [prompt];
  if (!Array.isArray(prompt) || prompt.length === 0) {
    throw invalidRequest("Invalid 'prompt': expected a string or a non-empty array.", 'prompt', 'invalid_type');
  }
  if (prompt.every((item) => typeof item === 'number')) return [prompt.join(' ')];
  return prompt.map((item) => (Array.isArray(item) ? item.join(' ') : String(item)));
}

function completionUsage(prompts: string[], outputs: GeneratedText[]): CompletionUsage {
  const promptTokens = prompts.reduce((total, prompt) => total + Math.max(1, countWords(prompt)), 0);
  const completionTokens = outputs.reduce((total, output) => total + countWords(output.text), 0);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

function completionResponse(identity: ResponseIdentity, outputs: GeneratedText[], usage: CompletionUsage) {
  const choices = outputs.map((output, index) => ({
    text: output.text,
    index,
    logprobs: null,
    finish_reason: output.finishReason,
  }));
  return { ...completionChunk(identity, choices, false), usage };
}

/** Completion chunks share the response's shape; the last one per choice has empty text and the finish reason. */
function completionStreamPlan(
  identity: ResponseIdentity,
  outputs: GeneratedText[],
  usage: CompletionUsage | null,
): EventStreamPlan {
  const includeUsage = usage !== null;
  const chunk = (index: number, text: string, finishReason: string | null) =>
    completionChunk(identity, [{ text, index, logprobs: null, finish_reason: finishReason }], includeUsage);
  const contentChunks = interleaveChunks(
    outputs.map((output, index) => splitIntoWordPieces(output.text).map((piece) => chunk(index, piece, null))),
  );
  const trailingChunks: unknown[] = outputs.map((output, index) => chunk(index, '', output.finishReason));
  if (usage !== null) trailingChunks.push({ ...completionChunk(identity, [], true), usage });
  return { leadingChunks: [], contentChunks, trailingChunks };
}

function completionChunk(identity: ResponseIdentity, choices: unknown[], includeUsage: boolean) {
  const chunk = {
    id: identity.id,
    object: 'text_completion',
    created: identity.created,
    model: identity.model,
    system_fingerprint: systemFingerprint,
    choices,
  };
  return includeUsage ? { ...chunk, usage: null } : chunk;
}
