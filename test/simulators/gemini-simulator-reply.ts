// The simulated Gemini model: echo replies, functionCall parts (with thought signatures for `thinking` models), usage metadata.
import type { GeminiSimulatorPart, GeminiSimulatorRequest } from './gemini-simulator-validation.js';
import { countWords, splitIntoWordPieces } from './openai-simulator-text.js';
import { scriptedToolTurnOf } from './scripted-tool-turn.js';

/** The simulated answer of one candidate, and the request's usage. */
export interface GeminiReply {
  parts: GeminiSimulatorPart[];
  finishReason: 'STOP' | 'MAX_TOKENS';
  usageMetadata: Record<string, number>;
}

const tokensPerFunctionCall = 10;
const thoughtsTokens = 3;

/** The signature a thinking model attaches to its call of `name` (base64 with `+`, `/` and padding, to test round trips). */
export function thoughtSignatureFor(name: string): string {
  return Buffer.from(`sig:${name}:\u00fb\u00ff`, 'latin1').toString('base64');
}

/** Generates the answer: "Echo: <last user text>", "Tool results: <a>; <b>", `{"echo": …}` for JSON, or functionCall parts. */
export function createGeminiReply(request: GeminiSimulatorRequest, model: string): GeminiReply {
  const last = request.contents.at(-1);
  const lastParts = last?.parts ?? [];
  const responses = lastParts
    .filter((part) => part.functionResponse)
    .map((part) => responseText((part.functionResponse as { response: Record<string, unknown> }).response));
  const thinking = model.includes('thinking');
  // A `sim-call`/`sim-answer` prompt scripts the turn (scripted-tool-turn.ts), as in the other simulators.
  const scripted =
    responses.length === 0 ? scriptedToolTurnOf(lastUserText(request), request.functionNames) : undefined;
  if (
    responses.length === 0 &&
    scripted?.kind !== 'answer' &&
    request.functionNames.length > 0 &&
    request.mode !== 'NONE'
  ) {
    const names = scripted?.kind === 'call' ? [scripted.name] : (request.allowedFunctionNames ?? request.functionNames);
    const parts = names.map((name) => ({
      functionCall: { name, args: scripted?.kind === 'call' ? scripted.input : { query: lastUserText(request) } },
      ...(thinking ? { thoughtSignature: thoughtSignatureFor(name) } : {}),
    }));
    return { parts, finishReason: 'STOP', usageMetadata: usage(request, model, parts.length * tokensPerFunctionCall) };
  }
  // JSON output (`responseMimeType: application/json`) answers `{"echo": …}`, as the OpenAI simulator does.
  const fullText =
    request.generationConfig.responseMimeType === 'application/json'
      ? JSON.stringify({ echo: responses.length > 0 ? responses.join('; ') : lastUserText(request) })
      : responses.length > 0
        ? `Tool results: ${responses.join('; ')}`
        : `Echo: ${lastUserText(request)}`;
  const stopped = cutAtStopSequence(fullText, request.generationConfig.stopSequences);
  const maximum =
    typeof request.generationConfig.maxOutputTokens === 'number' ? request.generationConfig.maxOutputTokens : undefined;
  const pieces = splitIntoWordPieces(stopped);
  const cut = maximum !== undefined && pieces.length > maximum;
  const text = cut ? pieces.slice(0, maximum).join('').trimEnd() : stopped;
  return {
    parts: [{ text }],
    finishReason: cut ? 'MAX_TOKENS' : 'STOP',
    usageMetadata: usage(request, model, countWords(text)),
  };
}

function usage(request: GeminiSimulatorRequest, model: string, candidatesTokenCount: number): Record<string, number> {
  const promptTokenCount = countWords(
    [request.systemText, ...request.contents.flatMap((content) => content.parts.map(partText))].join(' '),
  );
  const thoughts = model.includes('thinking') ? thoughtsTokens : 0;
  const metadata: Record<string, number> = {
    promptTokenCount,
    candidatesTokenCount,
    totalTokenCount: promptTokenCount + candidatesTokenCount + thoughts,
  };
  if (thoughts > 0) metadata.thoughtsTokenCount = thoughts;
  if (model.includes('cache')) metadata.cachedContentTokenCount = Math.max(1, Math.floor(promptTokenCount / 2));
  return metadata;
}

function lastUserText(request: GeminiSimulatorRequest): string {
  const lastUser = request.contents.findLast((content) => content.role === 'user');
  return (lastUser?.parts ?? [])
    .filter((part) => typeof part.text === 'string')
    .map((part) => String(part.text))
    .join(' ');
}

/** A functionResponse as text: its `content` when that is all it holds, else its JSON. */
function responseText(response: Record<string, unknown>): string {
  const keys = Object.keys(response);
  return keys.length === 1 && typeof response.content === 'string' ? response.content : JSON.stringify(response);
}

function partText(part: GeminiSimulatorPart): string {
  if (typeof part.text === 'string') return part.text;
  if (part.functionCall) return JSON.stringify((part.functionCall as { args?: unknown }).args ?? {});
  if (part.functionResponse) return JSON.stringify((part.functionResponse as { response?: unknown }).response ?? {});
  return '';
}

function cutAtStopSequence(text: string, sequences: unknown): string {
  let cutIndex = text.length;
  for (const sequence of Array.isArray(sequences) ? sequences : []) {
    const index = typeof sequence === 'string' && sequence ? text.indexOf(sequence) : -1;
    if (index !== -1 && index < cutIndex) cutIndex = index;
  }
  return text.slice(0, cutIndex);
}

/** The reply's parts as stream pieces: text split into words, each functionCall whole (as Gemini streams them). */
export function streamPiecesOf(reply: GeminiReply): GeminiSimulatorPart[] {
  return reply.parts.flatMap((part) =>
    typeof part.text === 'string' ? splitIntoWordPieces(part.text).map((piece) => ({ text: piece })) : [part],
  );
}
