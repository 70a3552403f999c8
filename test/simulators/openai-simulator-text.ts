// The simulator's "model": whitespace words as tokens, deterministic replies, stop and length cuts, ids.
import { randomUUID } from 'node:crypto';

/** Why a generated text ended, as OpenAI reports it. */
export type FinishReason = 'stop' | 'length' | 'tool_calls';

/** A generated reply after `stop` and `max_tokens` were applied. */
export interface GeneratedText {
  /** the text returned to the client */
  text: string;
  /** `length` when max_tokens cut it, else `stop` */
  finishReason: FinishReason;
}

const wordPattern = /\S+/g;
const wordWithSpacePattern = /\S+\s*/g;

/** Number of whitespace-separated words, the simulator's token count. */
export function countWords(text: string): number {
  return text.match(wordPattern)?.length ?? 0;
}

/** Splits text into streaming pieces: each word with the whitespace after it, so the pieces join back to the text. */
export function splitIntoWordPieces(text: string): string[] {
  const pieces = text.match(wordWithSpacePattern) ?? [];
  const leadingWhitespace = /^\s*/.exec(text)?.[0] ?? '';
  if (leadingWhitespace.length > 0) {
    if (pieces.length === 0) return [leadingWhitespace];
    pieces[0] = leadingWhitespace + pieces[0];
  }
  return pieces;
}

/** Text of exactly `wordCount` words, cycling through the words of `text` (for paced benchmark streams). */
export function repeatWords(text: string, wordCount: number): string {
  const words = text.match(wordPattern) ?? ['word'];
  return Array.from({ length: wordCount }, (_, index) => words[index % words.length]).join(' ');
}

/** Applies the `stop` sequences, then the token limit, to a reply the way a model would. */
export function applyStopAndLimit(text: string, stop: unknown, maximumTokens: number | undefined): GeneratedText {
  const stopped = cutAtFirstStopSequence(text, stopSequences(stop));
  if (maximumTokens === undefined || countWords(stopped) <= maximumTokens)
    return { text: stopped, finishReason: 'stop' };
  const kept = splitIntoWordPieces(stopped).slice(0, maximumTokens).join('').trimEnd();
  return { text: kept, finishReason: 'length' };
}

/** The `max_completion_tokens` or `max_tokens` request field, whichever is set. */
export function maximumTokensOf(body: Record<string, unknown>): number | undefined {
  const value = body.max_completion_tokens ?? body.max_tokens;
  return typeof value === 'number' ? value : undefined;
}

/** A random alphanumeric id tail, like the ones OpenAI puts after `chatcmpl-`. */
export function randomIdentifier(): string {
  return randomUUID().replaceAll('-', '').slice(0, 24);
}

/** The current time in whole seconds, OpenAI's `created`. */
export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function stopSequences(stop: unknown): string[] {
  const list = Array.isArray(stop) ? stop : [stop];
  return list.filter((sequence): sequence is string => typeof sequence === 'string' && sequence.length > 0);
}

function cutAtFirstStopSequence(text: string, sequences: string[]): string {
  let cutIndex = text.length;
  for (const sequence of sequences) {
    const index = text.indexOf(sequence);
    if (index !== -1 && index < cutIndex) cutIndex = index;
  }
  return text.slice(0, cutIndex);
}

/** The id, creation time and model every response and chunk of one completion shares. */
export interface ResponseIdentity {
  /** e.g. `chatcmpl-…` */
  id: string;
  /** Unix seconds */
  created: number;
  /** the model name the simulator received */
  model: string;
}

/** The backend fingerprint the simulator reports (OpenAI's `system_fingerprint`). */
export const systemFingerprint = 'fp_simulator';

/** A fresh identity for one completion; `idPrefix` is `chatcmpl` or `cmpl`. */
export function newResponseIdentity(idPrefix: string, model: unknown): ResponseIdentity {
  return { id: `${idPrefix}-${randomIdentifier()}`, created: nowInSeconds(), model: String(model) };
}
