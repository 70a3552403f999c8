import type { Readable } from 'node:stream';
import type { ChatStreamPart } from '../core/chat-stream-part.js';
import { GatewayError } from '../core/gateway-error.js';
import { redactUpstreamText } from '../providers/openai/redact-upstream-text.js';
import type { OpenAiChunkEncoder } from '../providers/translated-stream/encode-openai-chunks.js';
import type { ClientStreamWriter } from './client-stream-writer.js';
import type { RelayedStreamOutcome } from './relay-openai-event-stream.js';

/** How relaying a translated stream ended. */
export type TranslatedRelayResult =
  /** bytes reached the client (or the client left): the attempt is over, whatever the outcome */
  | { kind: 'relayed'; outcome: RelayedStreamOutcome }
  /** nothing reached the client yet, so another channel may be tried */
  | { kind: 'failed-before-first-byte'; error: GatewayError };

/**
 * Relays canonical parts to the client as OpenAI SSE through the same writer as the pass-through relay: a departed
 * client stops the reading, an error after the first byte ends the stream with an error event and no `[DONE]`, an
 * error before it lets another channel be tried, and a finished stream ends with `data: [DONE]`.
 */
export async function relayChatStreamParts(options: {
  parts: AsyncIterable<ChatStreamPart>;
  upstreamBody: Readable;
  writer: ClientStreamWriter;
  encoder: OpenAiChunkEncoder;
}): Promise<TranslatedRelayResult> {
  const { writer, upstreamBody } = options;
  const outcome: RelayedStreamOutcome = { usage: undefined, completed: false, error: undefined, firstEventAt: undefined, generatedText: undefined };
  const generatedParts: string[] = [];
  let upstreamError: GatewayError | undefined;
  let finished = false;

  try {
    for await (const part of options.parts) {
      if (part.type === 'error') {
        upstreamError = new GatewayError(part.code, redactUpstreamText(part.message));
        break;
      }
      if (part.type === 'usage') outcome.usage = part.usage;
      if (part.type === 'finish') finished = true;
      collectGeneratedText(part, generatedParts);
      writer.writeEvents(options.encoder.encode(part));
      await writer.waitWhileClientIsFull();
      if (writer.clientGone) break;
    }
  } catch {
    // The upstream connection broke or sent something unreadable: handled below like an early end.
  }
  upstreamBody.destroy();
  if (!outcome.usage) outcome.generatedText = generatedParts.join('');
  outcome.firstEventAt = writer.firstEventAt;
  if (writer.clientGone) return { kind: 'relayed', outcome };

  if (finished && !upstreamError) {
    writer.writeEvents(options.encoder.end());
    outcome.firstEventAt = writer.firstEventAt;
    outcome.completed = true;
    writer.endWithDone();
    return { kind: 'relayed', outcome };
  }
  const error = upstreamError ?? new GatewayError('server_error', 'The upstream stream ended unexpectedly; the answer is incomplete.');
  if (writer.firstEventAt === undefined) {
    const retryable = upstreamError ?? new GatewayError('service_unavailable', 'The upstream vendor could not be reached; retry later.');
    return { kind: 'failed-before-first-byte', error: retryable };
  }
  outcome.error = error;
  writer.endWithErrorEvent(error);
  return { kind: 'relayed', outcome };
}

function collectGeneratedText(part: ChatStreamPart, into: string[]): void {
  if (part.type === 'text-delta' || part.type === 'reasoning-delta') into.push(part.text);
  else if (part.type === 'tool-input-delta') into.push(part.argumentsDelta);
  else if (part.type === 'tool-call-start') into.push(part.name);
}
