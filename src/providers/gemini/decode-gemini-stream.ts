import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ChatStreamPart } from '../../core/chat-stream-part.js';
import type { VendorCall } from '../chat-adapter.js';
import { readServerSentEvents } from '../translated-stream/read-server-sent-events.js';
import { createGeminiBaseCallId, encodeGeminiToolCallId } from './gemini-tool-call-id.js';
import type { GeminiResponse, GeminiUsageMetadata } from './gemini-wire-types.js';
import { mapGeminiStreamError } from './map-gemini-failure.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { parseGeminiUsage } from './parse-gemini-usage.js';

/** What the decoder remembers between chunks. */
interface GeminiStreamState {
  responseId: string | undefined;
  started: boolean;
  /** the latest usageMetadata, emitted with the finish only: an earlier one would under-count a cut-off stream */
  usage: GeminiUsageMetadata | undefined;
  nextToolCallIndex: number;
}

/**
 * Decodes `streamGenerateContent?alt=sse` (each event a GenerateContentResponse holding only new parts):
 * text → text-delta (thought parts → reasoning-delta), each whole functionCall → tool-call-start plus one
 * tool-input-delta, the last usageMetadata → usage (with the finish), finishReason (or a prompt blockReason) → finish, an `error`
 * chunk → an error part. Only candidate 0 is read: streamed requests are limited to one candidate.
 */
export async function* decodeGeminiStream(body: Readable, _call: VendorCall): AsyncGenerator<ChatStreamPart> {
  const state: GeminiStreamState = { responseId: undefined, started: false, usage: undefined, nextToolCallIndex: 0 };
  for await (const event of readServerSentEvents(body)) {
    const chunk = parseChunk(event.data);
    if (!chunk) continue;
    if (chunk.error) {
      yield mapGeminiStreamError(chunk.error);
      return;
    }
    yield* partsOfChunk(chunk, state);
  }
}

function* partsOfChunk(chunk: GeminiResponse, state: GeminiStreamState): Generator<ChatStreamPart> {
  if (!state.started) {
    state.started = true;
    state.responseId = chunk.responseId ?? randomUUID();
    yield { type: 'start', responseId: `chatcmpl-${state.responseId}`, model: chunk.modelVersion };
  }
  const candidate = chunk.candidates?.find((entry) => (entry.index ?? 0) === 0);
  for (const part of candidate?.content?.parts ?? []) {
    if (typeof part.text === 'string' && part.text) yield { type: part.thought ? 'reasoning-delta' : 'text-delta', text: part.text };
    if (part.functionCall) {
      const toolCallIndex = state.nextToolCallIndex++;
      const baseId = part.functionCall.id ?? createGeminiBaseCallId(state.responseId ?? '', 0, toolCallIndex);
      yield { type: 'tool-call-start', toolCallIndex, id: encodeGeminiToolCallId(baseId, part.thoughtSignature), name: part.functionCall.name };
      yield { type: 'tool-input-delta', toolCallIndex, argumentsDelta: JSON.stringify(part.functionCall.args ?? {}) };
    }
  }
  if (chunk.usageMetadata) state.usage = chunk.usageMetadata;
  const blockReason = chunk.promptFeedback?.blockReason;
  const finishes = Boolean(candidate?.finishReason) || Boolean(blockReason && !candidate);
  if (finishes && state.usage) yield { type: 'usage', usage: parseGeminiUsage(state.usage) };
  if (candidate?.finishReason) {
    yield { type: 'finish', finishReason: mapGeminiFinishReason(candidate.finishReason, state.nextToolCallIndex > 0), rawReason: candidate.finishReason };
  } else if (blockReason && !candidate) {
    yield { type: 'finish', finishReason: 'content_filter', rawReason: blockReason };
  }
}

function parseChunk(data: string): GeminiResponse | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' ? (parsed as GeminiResponse) : undefined;
  } catch {
    return undefined;
  }
}
