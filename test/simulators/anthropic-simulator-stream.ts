// Writes a Messages answer as Anthropic's SSE events (`event: <type>` + JSON `data`), optionally breaking it on purpose.
import type { ServerResponse } from 'node:http';
import { contentEventsBeforeBreak, type VendorModelBehaviour } from './anthropic-simulator-behaviour.js';
import type { AnthropicReply } from './anthropic-simulator-reply.js';
import type { ClientConnection } from './openai-simulator-connection.js';
import { splitIntoWordPieces } from './openai-simulator-text.js';

/** How long a stalled stream (`sim-stall-after-<N>`) stays silent: longer than any test, ended by the client leaving. */
const stallMs = 3_600_000;

/** One SSE event of the plan. */
interface PlannedEvent {
  type: string;
  data: Record<string, unknown>;
  /** content events count toward a deliberate break and wait for the pacing delay */
  isContent: boolean;
}

/** Streams the reply; stops early if the client leaves, breaks as the behaviour asks. */
export async function sendAnthropicEventStream(options: {
  response: ServerResponse;
  connection: ClientConnection;
  reply: AnthropicReply;
  messageId: string;
  model: string;
  behaviour: VendorModelBehaviour;
  chunkDelayMs: number;
}): Promise<void> {
  const { response, connection, behaviour } = options;
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  response.flushHeaders();
  if (behaviour.kind === 'broken-before-first-event') {
    await connection.write('', true);
    connection.breakOnPurpose();
    return;
  }
  let contentEvents = 0;
  // A paced model (`sim-paced-<N>x<M>`) waits its interval between content events when no delay is set for all.
  const chunkDelayMs = options.chunkDelayMs || (behaviour.kind === 'paced' ? behaviour.intervalMs : 0);
  for (const event of planEvents(options.reply, options.messageId, options.model)) {
    if (event.isContent) {
      await connection.wait(chunkDelayMs);
      if (contentEvents === contentEventsBeforeBreak && behaviour.kind === 'broken-stream') {
        connection.breakOnPurpose();
        return;
      }
      if (contentEvents === contentEventsBeforeBreak && behaviour.kind === 'stream-error-event') {
        await connection.write(
          formatEvent('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
        );
        response.end();
        return;
      }
      contentEvents++;
    }
    if (!connection.isOpen) return;
    await connection.write(formatEvent(event.type, event.data), contentEvents === contentEventsBeforeBreak);
    // `sim-stall-after-<N>`: after N content events nothing more, the connection kept open (a stalled vendor).
    if (event.isContent && behaviour.kind === 'stall' && contentEvents === behaviour.contentChunks) {
      await connection.wait(stallMs);
      return;
    }
  }
  if (connection.isOpen) response.end();
}

function planEvents(reply: AnthropicReply, messageId: string, model: string): PlannedEvent[] {
  const event = (type: string, data: Record<string, unknown>, isContent = false): PlannedEvent => ({
    type,
    data: { type, ...data },
    isContent,
  });
  const startUsage = { ...reply.usage, output_tokens: 1 };
  const events: PlannedEvent[] = [
    event('message_start', {
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: startUsage,
      },
    }),
    event('ping', {}),
  ];
  reply.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const piece of splitIntoWordPieces(block.text))
        events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }, true));
    } else {
      events.push(
        event('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      for (const piece of splitJson(JSON.stringify(block.input)))
        events.push(
          event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }, true),
        );
    }
    events.push(event('content_block_stop', { index }));
  });
  events.push(
    event('message_delta', {
      delta: { stop_reason: reply.stop_reason, stop_sequence: reply.stop_sequence },
      usage: {
        output_tokens: reply.usage.output_tokens,
        input_tokens: reply.usage.input_tokens,
        cache_creation_input_tokens: reply.usage.cache_creation_input_tokens,
        cache_read_input_tokens: reply.usage.cache_read_input_tokens,
        ...(reply.usage.cache_creation ? { cache_creation: reply.usage.cache_creation } : {}),
      },
    }),
    event('message_stop', {}),
  );
  return events;
}

/** Splits tool input JSON into at least three pieces, as Anthropic streams partial JSON. */
function splitJson(text: string): string[] {
  const pieceLength = Math.max(1, Math.ceil(text.length / 3));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += pieceLength) pieces.push(text.slice(start, start + pieceLength));
  return pieces;
}

function formatEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}
