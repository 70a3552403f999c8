import type { Readable } from 'node:stream';
import type { ClientSink, ResponseHeaderGroups } from './client-sink.js';
import { readUpstreamBody, type ChunkVerdict } from './read-upstream-body.js';
import { discardUpstreamBody } from './release-upstream-body.js';

/** What relaying an audio answer needs. */
export interface StreamThroughAudioOptions {
  body: Readable;
  client: ClientSink;
  /** the head's headers (the request's, then the answer's content type) */
  headers: ResponseHeaderGroups;
  /** `GATEWAY_UPSTREAM_MAX_BODY_BYTES`: past it the answer is cut off */
  maximumBytes: number;
  /** how long a client that stopped reading may stall the answer before it is cut off, in milliseconds (0 = forever) */
  clientDrainTimeoutMs: number;
  /** Unix milliseconds */
  clock: () => number;
}

/** How relaying ended. */
export type StreamThroughAudioResult =
  /** the body failed or was empty before any byte went to the client: another channel may answer */
  | { kind: 'failed-before-first-byte'; fault: 'broken' | 'empty' | 'too-large' }
  /** bytes went out; `fault` when the answer broke after them (the client's connection was then cut) */
  | { kind: 'relayed'; firstByteAt: number; bytes: number; fault: 'broken' | 'too-large' | 'client-gone' | undefined };

/**
 * Relays a binary answer (speech audio) to the client as its bytes arrive, with backpressure: the head leaves with the
 * first bytes, so a vendor that fails before them can still fail over. An answer that breaks after its first bytes
 * cuts the client's connection (an incomplete chunked body every HTTP client reports), never a complete-looking file.
 * A client that leaves stops the reading: the answer's bytes carry no usage to wait for.
 */
export async function streamThroughAudioAnswer(options: StreamThroughAudioOptions): Promise<StreamThroughAudioResult> {
  const { body, client } = options;
  let bytes = 0;
  let firstByteAt: number | undefined;
  let tooLarge = false;
  let clientGone = false;

  const onChunk = (chunk: Buffer): ChunkVerdict | Promise<ChunkVerdict> => {
    if (chunk.length === 0) return 'continue';
    bytes += chunk.length;
    if (bytes > options.maximumBytes) {
      tooLarge = true;
      return 'stop';
    }
    if (client.gone) {
      clientGone = true;
      return 'stop';
    }
    if (firstByteAt === undefined) {
      client.startStream();
      client.writeHead(200, options.headers);
      firstByteAt = options.clock();
    }
    client.write(chunk);
    if (!client.needsDrain) return 'continue';
    return client.waitForDrain(options.clientDrainTimeoutMs).then((outcome) => {
      if (outcome === 'drained') return 'continue';
      clientGone = true;
      return 'stop';
    });
  };

  let broken = false;
  try {
    await readUpstreamBody(body, onChunk);
  } catch {
    broken = true;
  }
  if (firstByteAt === undefined) {
    discardUpstreamBody(body);
    return { kind: 'failed-before-first-byte', fault: broken ? 'broken' : tooLarge ? 'too-large' : 'empty' };
  }
  if (broken || tooLarge || clientGone) {
    discardUpstreamBody(body);
    if (!client.gone) client.abort();
    return { kind: 'relayed', firstByteAt, bytes, fault: broken ? 'broken' : tooLarge ? 'too-large' : 'client-gone' };
  }
  if (!client.gone) client.end();
  return { kind: 'relayed', firstByteAt, bytes, fault: undefined };
}
