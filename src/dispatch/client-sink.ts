import type { GatewayError } from '../core/gateway-error.js';

/**
 * Response headers in groups (e.g. the request's rate-limit headers, then the answer's content type): a name in a
 * later group replaces the same name in an earlier one. Groups spare every answer a merged copy of them.
 */
export type ResponseHeaderGroups = readonly Readonly<Record<string, string>>[];

/** How waiting for a client to take more bytes ended. */
export type ClientDrainOutcome = 'drained' | 'closed' | 'timed-out';

/**
 * Where dispatch writes one client's answer: a complete JSON answer, or a stream written head first, chunk by chunk
 * with backpressure. `server/` implements it over the Fastify reply; dispatch never sees the HTTP framework, and
 * providers never see a sink at all (they return data and stream parts).
 */
export interface ClientSink {
  /** true once the client's connection is gone (closed, destroyed, or cut for not reading) */
  readonly gone: boolean;
  /** true once `startStream` took the response over: errors must then be written by dispatch, not the framework */
  readonly streaming: boolean;
  /** true while the client's write buffer is full: the writer should `waitForDrain` before writing more */
  readonly needsDrain: boolean;
  /** calls `listener` once when the client leaves before its answer was complete; returns a function that stops listening */
  onClientLeave(listener: () => void): () => void;
  /** sends a complete non-streamed answer through the framework (its hooks and headers apply) */
  sendAnswer(status: number, headers: ResponseHeaderGroups, body: string): Promise<void>;
  /** takes the response over for a stream; nothing is written until `writeHead` */
  startStream(): void;
  /** writes the status line and headers of a stream; they leave with the write or end that follows */
  writeHead(status: number, headers: ResponseHeaderGroups): void;
  /** writes one chunk of a stream (text, or the bytes of a binary answer such as speech audio) */
  write(chunk: string | Uint8Array): void;
  /** waits until the client takes bytes again; after `timeoutMs` (0 = no deadline) the client is cut off */
  waitForDrain(timeoutMs: number): Promise<ClientDrainOutcome>;
  /** writes the last chunk, if any, and ends the response */
  end(chunk?: string): void;
  /** answers a stream that never wrote its head with a JSON error; does nothing once the head is out or the client is gone */
  endWithError(error: GatewayError): void;
  /** cuts the client's connection */
  abort(): void;
}
