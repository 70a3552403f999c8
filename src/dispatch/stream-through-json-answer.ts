import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { ClientSink, ResponseHeaderGroups } from './client-sink.js';
import { readUpstreamBody, type ChunkVerdict } from './read-upstream-body.js';
import { discardUpstreamBody } from './release-upstream-body.js';

/** How much of an answer is read before its first bytes go to the client: enough to check its shape, small enough to hold. */
const headWindowBytes = 64 * 1024;
/** How much of an answer's end is kept: its usage object is there. */
const tailWindowChars = 64 * 1024;

/** What streaming a large JSON answer through needs. */
export interface StreamThroughJsonOptions {
  body: Readable;
  client: ClientSink;
  /** the head's headers (the request's, then the answer's content type) */
  headers: ResponseHeaderGroups;
  /** `GATEWAY_UPSTREAM_MAX_BODY_BYTES`: past it the answer is cut off */
  maximumBytes: number;
  /** how long a client that stopped reading may stall the answer before it is no longer written to, in milliseconds (0 = forever) */
  clientDrainTimeoutMs: number;
  /** Unix milliseconds */
  clock: () => number;
  /** false when the client already left: the answer is still read to its end (its usage bills the request), not written */
  writeToClient: boolean;
  /** why the answer's first window is not the endpoint's answer, or undefined when it may be relayed */
  checkHead: (headText: string) => string | undefined;
  /** why the answer's last window does not end it properly (cut-off JSON, bad usage), or undefined */
  checkTail: (tailText: string) => string | undefined;
}

/** How streaming through ended. */
export type StreamThroughJsonResult =
  /** the body ended within the first window: nothing was written, the caller checks and answers it whole */
  | { kind: 'whole'; text: string }
  /** the first window is not the endpoint's answer: nothing was written and the body was discarded */
  | { kind: 'refused'; fault: string }
  /** the answer went out (or, the client gone, was read to its end); `fault` when it broke after its first bytes (the client's connection was then cut) */
  | {
      kind: 'relayed';
      tailText: string;
      firstByteAt: number | undefined;
      fault: 'too-large' | 'cut-off' | 'broken' | undefined;
    };

/**
 * Relays a large non-streamed JSON answer (an embeddings batch) as it comes, with backpressure, instead of reading it
 * whole: the first 64 KiB are checked before any byte leaves, the last 64 KiB are kept for the usage reader. An
 * answer that breaks after its first bytes cannot become a 502 any more: the client's connection is cut, so its
 * client sees an incomplete answer, never a complete-looking wrong one. Rejects only when the body fails before its
 * first byte went out (the caller then treats it as a transport failure).
 */
export async function streamThroughJsonAnswer(options: StreamThroughJsonOptions): Promise<StreamThroughJsonResult> {
  const { body, client } = options;
  const decoder = new StringDecoder('utf8');
  const headChunks: Buffer[] = [];
  let headBytes = 0;
  let totalBytes = 0;
  // An object, not a `let`: the chunk handler changes it, and TypeScript would narrow a `let` to its first value.
  const state: { phase: 'head' | 'refused' | 'relaying' } = { phase: 'head' };
  let refusal: string | undefined;
  let tooLarge = false;
  let writing = options.writeToClient;
  let tailText = '';
  let firstByteAt: number | undefined;

  const relay = (text: string): ChunkVerdict | Promise<ChunkVerdict> => {
    tailText =
      tailText.length + text.length > tailWindowChars ? (tailText + text).slice(-tailWindowChars) : tailText + text;
    if (!writing || client.gone) {
      writing = false;
      return 'continue';
    }
    client.write(text);
    if (!client.needsDrain) return 'continue';
    return client.waitForDrain(options.clientDrainTimeoutMs).then((outcome) => {
      // A client cut off for not reading gets no more bytes; the answer is still read to its end for its usage.
      if (outcome !== 'drained') writing = false;
      return 'continue';
    });
  };

  const onChunk = (bytes: Buffer): ChunkVerdict | Promise<ChunkVerdict> => {
    totalBytes += bytes.length;
    if (totalBytes > options.maximumBytes) {
      tooLarge = true;
      return 'stop';
    }
    if (state.phase === 'relaying') return relay(decoder.write(bytes));
    headChunks.push(bytes);
    headBytes += bytes.length;
    if (headBytes < headWindowBytes) return 'continue';
    const headText = decoder.write(Buffer.concat(headChunks, headBytes));
    headChunks.length = 0;
    refusal = options.checkHead(headText);
    if (refusal) {
      state.phase = 'refused';
      return 'stop';
    }
    state.phase = 'relaying';
    if (writing && !client.gone) {
      client.startStream();
      client.writeHead(200, options.headers);
      firstByteAt = options.clock();
    }
    return relay(headText);
  };

  let ending: Awaited<ReturnType<typeof readUpstreamBody>>;
  try {
    ending = await readUpstreamBody(body, onChunk);
  } catch (error) {
    if (state.phase === 'head') throw error;
    cutClient(client, firstByteAt);
    return { kind: 'relayed', tailText, firstByteAt, fault: 'broken' };
  }
  if (state.phase === 'refused') {
    discardUpstreamBody(body);
    return { kind: 'refused', fault: refusal ?? 'unreadable' };
  }
  if (tooLarge) {
    discardUpstreamBody(body);
    if (state.phase === 'head') return { kind: 'refused', fault: 'too-large' };
    cutClient(client, firstByteAt);
    return { kind: 'relayed', tailText, firstByteAt, fault: 'too-large' };
  }
  if (ending === 'stopped') throw new Error('The upstream body stopped without a reason.');
  if (state.phase === 'head') return { kind: 'whole', text: Buffer.concat(headChunks, headBytes).toString('utf8') };
  const rest = decoder.end();
  if (rest) tailText = (tailText + rest).slice(-tailWindowChars);
  const tailFault = options.checkTail(tailText);
  if (tailFault) {
    cutClient(client, firstByteAt);
    return { kind: 'relayed', tailText, firstByteAt, fault: 'cut-off' };
  }
  if (firstByteAt !== undefined && !client.gone) client.end(rest || undefined);
  return { kind: 'relayed', tailText, firstByteAt, fault: undefined };
}

/** Cuts a client whose answer broke after its head: an incomplete chunked body, which every HTTP client reports. */
function cutClient(client: ClientSink, firstByteAt: number | undefined): void {
  if (firstByteAt !== undefined && !client.gone) client.abort();
}
