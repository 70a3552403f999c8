// Writes a generateContent answer as `alt=sse` events (`data: <GenerateContentResponse>`, no event names, no [DONE]).
import type { ServerResponse } from 'node:http';
import { contentEventsBeforeBreak, type VendorModelBehaviour } from './anthropic-simulator-behaviour.js';
import { streamPiecesOf, type GeminiReply } from './gemini-simulator-reply.js';
import type { ClientConnection } from './openai-simulator-connection.js';

/** Streams the reply; stops early if the client leaves, breaks as the behaviour asks. */
export async function sendGeminiEventStream(options: {
  response: ServerResponse;
  connection: ClientConnection;
  reply: GeminiReply;
  responseId: string;
  model: string;
  behaviour: VendorModelBehaviour;
  chunkDelayMs: number;
}): Promise<void> {
  const { response, connection, behaviour, reply } = options;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
  if (behaviour.kind === 'broken-before-first-event') {
    await connection.write('', true);
    connection.breakOnPurpose();
    return;
  }
  const pieces = streamPiecesOf(reply);
  const envelope = { modelVersion: options.model, responseId: options.responseId };
  for (const [index, part] of pieces.entries()) {
    await connection.wait(options.chunkDelayMs);
    if (!connection.isOpen) return;
    if (index === contentEventsBeforeBreak && behaviour.kind === 'broken-stream') {
      connection.breakOnPurpose();
      return;
    }
    if (index === contentEventsBeforeBreak && behaviour.kind === 'stream-error-event') {
      await connection.write(
        formatEvent({
          error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
        }),
      );
      response.end();
      return;
    }
    const isLast = index === pieces.length - 1;
    const candidate = {
      content: { role: 'model', parts: [part] },
      index: 0,
      ...(isLast ? { finishReason: reply.finishReason } : {}),
    };
    const usageMetadata = isLast ? reply.usageMetadata : { promptTokenCount: reply.usageMetadata.promptTokenCount };
    await connection.write(
      formatEvent({ candidates: [candidate], usageMetadata, ...envelope }),
      index + 1 === contentEventsBeforeBreak,
    );
    // `sim-stall-after-<N>`: after N content events nothing more, the connection kept open (a stalled vendor).
    if (behaviour.kind === 'stall' && index + 1 === behaviour.contentChunks) {
      await connection.wait(stallMs);
      return;
    }
  }
  if (connection.isOpen) response.end();
}

/** How long a stalled stream (`sim-stall-after-<N>`) stays silent: longer than any test, ended by the client leaving. */
const stallMs = 3_600_000;

function formatEvent(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
}
