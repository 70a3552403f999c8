// Writes a planned server-sent-event stream chunk by chunk: Chat Completions framing (`data: <json>` ... `data: [DONE]`)
// or Responses framing (`event: <type>` + `data: <json>` with a strictly increasing `sequence_number`, no `[DONE]`).
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ClientConnection } from './openai-simulator-connection.js';

/** How the events of a stream are framed. */
export type EventFraming =
  /** `data: <json>` lines ending with `data: [DONE]` (chat and legacy completions) */
  | 'chat'
  /** `event: <type>` + `data: <json>`, `sequence_number` stamped in send order from 0, no `[DONE]` (Responses API) */
  | 'responses'
  /** `event: <type>` + `data: <json>`, no `[DONE]` (speech's `speech.audio.*` events) */
  | 'speech';

/** The chunks of one stream, in order; `[DONE]` is added by the writer for chat framing. */
export interface EventStreamPlan {
  /** chunks sent at once, before any content (e.g. the role chunk) */
  leadingChunks: unknown[];
  /** content chunks: each one waits for the pacing delay first */
  contentChunks: unknown[];
  /** chunks after the content: finish reasons, then usage */
  trailingChunks: unknown[];
  /** default `chat` */
  framing?: EventFraming;
  /** what the vendor sends when it fails mid-stream; default OpenAI chat's `{"error": …}` chunk */
  failureChunks?: unknown[];
}

/** How the stream is timed and whether it breaks. */
export interface StreamPacing {
  /** wait before each content chunk */
  chunkDelayMs: number;
  /** stop after this many content chunks (no [DONE]); null streams to the end */
  breakAfterContentChunks: number | null;
  /** after this many content chunks send nothing more and keep the connection open until the client leaves (a stalled vendor) */
  stallAfterContentChunks?: number;
  /** how a stopped stream ends: a destroyed socket, or OpenAI's error event and a clean end of the body */
  breakWith?: 'destroyed-socket' | 'error-event';
  /** put each content chunk's send time in its `system_fingerprint` (`fp_sent_<Unix ms>`), so the benchmark can tell how long a path in the middle held it */
  stampSendTime?: boolean;
}

/** How long a stalled stream stays silent: longer than any test, ended early by the client leaving. */
const stallMs = 3_600_000;

/** The event OpenAI sends when it fails mid-stream. */
const midStreamErrorEvent = {
  error: {
    message: 'The server had an error while processing your request.',
    type: 'server_error',
    param: null,
    code: null,
  },
};

/** The headers OpenAI streams with. */
export const eventStreamHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } as const;

/** Streams the plan; each chunk gets its own write so none are coalesced. Stops early if the client leaves. */
export async function sendEventStream(
  response: ServerResponse,
  connection: ClientConnection,
  plan: EventStreamPlan,
  pacing: StreamPacing,
): Promise<void> {
  response.writeHead(200, eventStreamHeaders);
  response.flushHeaders();
  const format = eventFormatter(plan.framing ?? 'chat');
  for (const chunk of plan.leadingChunks) await connection.write(format(chunk));
  const failureChunks = plan.failureChunks ?? [midStreamErrorEvent];
  const completed = await sendContentChunks(connection, plan.contentChunks, failureChunks, pacing, format);
  if (!completed || !connection.isOpen) return;
  for (const chunk of plan.trailingChunks) await connection.write(format(chunk));
  if (connection.isOpen) response.end(plan.framing === 'chat' || !plan.framing ? 'data: [DONE]\n\n' : undefined);
}

/** Returns false when the stream must not go on (client gone or broken on purpose). */
async function sendContentChunks(
  connection: ClientConnection,
  chunks: unknown[],
  failureChunks: unknown[],
  pacing: StreamPacing,
  format: (chunk: unknown) => string,
): Promise<boolean> {
  const breakAfter = pacing.breakAfterContentChunks;
  for (const [index, chunk] of chunks.entries()) {
    await connection.wait(pacing.chunkDelayMs);
    if (!connection.isOpen) return false;
    const isLastBeforeBreak = breakAfter !== null && index + 1 >= breakAfter;
    // Before breaking, wait until the chunk reached the socket so the client does see it.
    const sent = pacing.stampSendTime
      ? {
          ...(chunk as object),
          system_fingerprint: `fp_sent_${(performance.timeOrigin + performance.now()).toFixed(3)}`,
        }
      : chunk;
    await connection.write(format(sent), isLastBeforeBreak);
    if (isLastBeforeBreak) break;
    if (pacing.stallAfterContentChunks === index + 1) {
      await connection.wait(stallMs);
      return false;
    }
  }
  if (breakAfter === null) return true;
  if (pacing.breakWith === 'error-event') {
    for (const chunk of failureChunks) await connection.write(format(chunk), true);
    connection.endOnPurpose();
  } else {
    connection.breakOnPurpose();
  }
  return false;
}

/** The formatter of one stream; the Responses one numbers the events it formats. */
function eventFormatter(framing: EventFraming): (chunk: unknown) => string {
  switch (framing) {
    case 'chat':
      return (chunk) => `data: ${JSON.stringify(chunk)}\n\n`;
    case 'responses': {
      let sequenceNumber = 0;
      return (chunk) => {
        const { type, ...rest } = chunk as { type: string };
        return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequenceNumber++, ...rest })}\n\n`;
      };
    }
    case 'speech':
      return (chunk) => `event: ${(chunk as { type: string }).type}\ndata: ${JSON.stringify(chunk)}\n\n`;
    default:
      return assertNever(framing);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected framing ${String(value)}`);
}

/** Round-robins the content chunks of several choices, as OpenAI interleaves them when `n` > 1. */
export function interleaveChunks(chunksPerChoice: unknown[][]): unknown[] {
  const longest = Math.max(0, ...chunksPerChoice.map((chunks) => chunks.length));
  const interleaved: unknown[] = [];
  for (let position = 0; position < longest; position++) {
    for (const chunks of chunksPerChoice) if (position < chunks.length) interleaved.push(chunks[position]);
  }
  return interleaved;
}
