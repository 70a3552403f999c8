import type { GatewayError } from '../core/gateway-error.js';
import type { ClientSink } from './client-sink.js';

/** Headers of every event stream the gateway sends. */
export const eventStreamHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/** What a stream writer asks of its forwarding once the client left (ForwardingControl): whether to read on, and the bytes read. */
export interface StreamDrain {
  /** true while the stream is read on for the vendor's usage although its client left */
  readonly draining: boolean;
  /** counts bytes read from the vendor after the client left (past the byte cap the stream is cut) */
  countDrainedBytes(bytes: number): void;
}

/**
 * Writes one OpenAI-style event stream to a client: the head only with the first event (so an upstream that fails
 * before it can fail over), writes that wait for the client to drain, and the two endings: `data: [DONE]` after a
 * complete answer, or an error event and no `[DONE]`, so a client never mistakes a cut-off answer for a complete one.
 * Both relays (OpenAI-wire pass-through and canonical parts through a client codec) write through this one writer;
 * the canonical relay gives it complete frames, so protocol endings belong to the codec. Once the client is gone it
 * writes nothing: a relay that drains the stream (see `mustStopReading`) keeps parsing and only the sink is gone.
 */
export class ClientStreamWriter {
  /** Unix milliseconds when the first event was written to the client */
  firstEventAt: number | undefined;
  private headWritten = false;
  private readonly client: ClientSink;
  private readonly responseHeaders: Readonly<Record<string, string>>;
  private readonly clock: () => number;
  private readonly clientDrainTimeoutMs: number;
  private readonly drain: StreamDrain | undefined;

  constructor(options: {
    client: ClientSink;
    /** headers added to the stream's head, e.g. rate-limit state */
    responseHeaders: Readonly<Record<string, string>>;
    /** Unix milliseconds */
    clock: () => number;
    /** how long a client that stopped reading may stall the stream before it is cut, in milliseconds (0 = forever) */
    clientDrainTimeoutMs: number;
    /** the forwarding's drain: whether a stream whose client left is read on (absent: it is not) */
    drain?: StreamDrain | undefined;
  }) {
    this.client = options.client;
    this.responseHeaders = options.responseHeaders;
    this.clock = options.clock;
    this.clientDrainTimeoutMs = options.clientDrainTimeoutMs;
    this.drain = options.drain;
    options.client.startStream();
  }

  /** True once the client is gone: nothing more is written, and no ending. */
  get clientGone(): boolean {
    return this.client.gone;
  }

  /** True when the relay must stop reading the upstream: the client is gone and the stream is not drained. */
  get mustStopReading(): boolean {
    return this.client.gone && this.drain?.draining !== true;
  }

  /** Counts bytes (or, for decoded parts, characters) read from the upstream; only those after the client left count. */
  countReadBytes(bytes: number): void {
    if (this.client.gone) this.drain?.countDrainedBytes(bytes);
  }

  /** Writes one event's `data:` payload. */
  writeEvent(data: string): void {
    if (this.client.gone) return;
    this.writeHeadOnce();
    this.client.write(`data: ${data}\n\n`);
  }

  /** Writes several events' payloads in one write; nothing when there are none. */
  writeEvents(payloads: readonly string[]): void {
    if (payloads.length === 0 || this.client.gone) return;
    this.writeHeadOnce();
    this.client.write(payloads.map((data) => `data: ${data}\n\n`).join(''));
  }

  /** Writes complete SSE frames (a client protocol codec's output) in one write; nothing when there are none. */
  writeFrames(frames: readonly string[]): void {
    if (frames.length === 0 || this.client.gone) return;
    this.writeHeadOnce();
    this.client.write(frames.join(''));
  }

  /** Ends the stream with a codec's closing frames (chat: `data: [DONE]`, or an error event and no `[DONE]`). */
  endWithFrames(frames: readonly string[]): void {
    if (this.client.gone) return;
    if (frames.length > 0) this.writeHeadOnce();
    else this.writeHeadIfNone();
    this.client.end(frames.join(''));
  }

  /** True while the client's buffer is full: a relay then waits (checked first, so a relay awaits nothing per chunk otherwise). */
  get clientIsFull(): boolean {
    return this.client.needsDrain;
  }

  /** Waits, when the client's buffer is full, until it takes bytes again (or is cut off for not reading). */
  async waitWhileClientIsFull(): Promise<void> {
    if (this.client.needsDrain && !this.client.gone) await this.client.waitForDrain(this.clientDrainTimeoutMs);
  }

  /** Ends a complete stream with `data: [DONE]`. */
  endWithDone(): void {
    if (this.client.gone) return;
    this.writeHeadIfNone();
    this.client.end('data: [DONE]\n\n');
  }

  /** Ends a cut-off stream with an error event and no `[DONE]`. */
  endWithErrorEvent(error: GatewayError): void {
    if (this.client.gone) return;
    this.writeHeadIfNone();
    this.client.end(`data: ${JSON.stringify(error.toBody())}\n\n`);
  }

  private writeHeadOnce(): void {
    if (this.firstEventAt !== undefined) return;
    this.writeHeadIfNone();
    this.firstEventAt = this.clock();
  }

  /** An ending without events writes the head too, but no first event time. */
  private writeHeadIfNone(): void {
    if (this.headWritten) return;
    this.headWritten = true;
    this.client.writeHead(200, [this.responseHeaders, eventStreamHeaders]);
  }
}
