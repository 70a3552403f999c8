import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { ChatStreamPart } from '../../core/chat-stream-part.js';
import { GatewayError } from '../../core/gateway-error.js';
import { eventStreamHeaders, type RelayedStreamOutcome } from '../openai/relay-openai-event-stream.js';
import { redactUpstreamText } from '../openai/redact-upstream-text.js';
import type { OpenAiChunkEncoder } from './encode-openai-chunks.js';
import { waitForClientDrain } from '../wait-for-client-drain.js';

/** How relaying a translated stream ended. */
export type TranslatedRelayResult =
  /** bytes reached the client (or the client left): the attempt is over, whatever the outcome */
  | { kind: 'relayed'; outcome: RelayedStreamOutcome }
  /** nothing reached the client yet, so another channel may be tried */
  | { kind: 'failed-before-first-byte'; error: GatewayError };

/**
 * Relays canonical parts to the client as OpenAI SSE, with the semantics of relayOpenAiEventStream: the
 * head is written with the first chunk (so an upstream that fails before can fail over), writes wait for
 * the client to drain, a departed client stops the reading, an error after the first byte ends the stream
 * with an error event and no `[DONE]`, and a finished stream ends with `data: [DONE]`.
 */
export async function relayChatStreamParts(options: {
  parts: AsyncIterable<ChatStreamPart>;
  upstreamBody: Readable;
  response: ServerResponse;
  encoder: OpenAiChunkEncoder;
  responseHeaders: Record<string, string>;
  clock: () => number;
  /** how long a client that stopped reading may stall the stream before it is cut, in milliseconds (0 = forever) */
  clientDrainTimeoutMs: number;
}): Promise<TranslatedRelayResult> {
  const { response, upstreamBody } = options;
  const outcome: RelayedStreamOutcome = { usage: undefined, completed: false, error: undefined, firstEventAt: undefined, generatedText: undefined };
  const generatedParts: string[] = [];
  let upstreamError: GatewayError | undefined;
  let finished = false;

  const writeChunks = (chunks: string[]): void => {
    if (chunks.length === 0) return;
    if (outcome.firstEventAt === undefined) {
      response.writeHead(200, { ...options.responseHeaders, ...eventStreamHeaders });
      response.flushHeaders();
      outcome.firstEventAt = options.clock();
    }
    response.write(chunks.map((data) => `data: ${data}\n\n`).join(''));
  };

  try {
    for await (const part of options.parts) {
      if (part.type === 'error') {
        upstreamError = new GatewayError(part.code, redactUpstreamText(part.message));
        break;
      }
      if (part.type === 'usage') outcome.usage = part.usage;
      if (part.type === 'finish') finished = true;
      collectGeneratedText(part, generatedParts);
      writeChunks(options.encoder.encode(part));
      if (response.writableNeedDrain) await waitForClientDrain(response, options.clientDrainTimeoutMs);
      if (response.destroyed) break;
    }
  } catch {
    // The upstream connection broke or sent something unreadable: handled below like an early end.
  }
  upstreamBody.destroy();
  if (!outcome.usage) outcome.generatedText = generatedParts.join('');
  if (response.destroyed) return { kind: 'relayed', outcome };

  if (finished && !upstreamError) {
    writeChunks(options.encoder.end());
    if (outcome.firstEventAt === undefined) response.writeHead(200, { ...options.responseHeaders, ...eventStreamHeaders });
    outcome.completed = true;
    response.end('data: [DONE]\n\n');
    return { kind: 'relayed', outcome };
  }
  const error = upstreamError ?? new GatewayError('server_error', 'The upstream stream ended unexpectedly; the answer is incomplete.');
  if (outcome.firstEventAt === undefined) {
    const retryable = upstreamError ?? new GatewayError('service_unavailable', 'The upstream vendor could not be reached; retry later.');
    return { kind: 'failed-before-first-byte', error: retryable };
  }
  outcome.error = error;
  // An error event and no [DONE]: the client must not mistake a cut-off answer for a complete one.
  response.end(`data: ${JSON.stringify(error.toBody())}\n\n`);
  return { kind: 'relayed', outcome };
}

function collectGeneratedText(part: ChatStreamPart, into: string[]): void {
  if (part.type === 'text-delta' || part.type === 'reasoning-delta') into.push(part.text);
  else if (part.type === 'tool-input-delta') into.push(part.argumentsDelta);
  else if (part.type === 'tool-call-start') into.push(part.name);
}
