import type { Logger } from 'pino';
import type { RequestBodyRecord, RequestBodyStore } from '../storage/request-body-store.js';
import { cutToBytes } from './cut-to-bytes.js';
import { createRateLimitedLog, type RateLimitedLog } from './rate-limited-log.js';

/** One answered request as the request path hands it over: its body bytes and the answer it sent. */
export interface RequestBodyCapture {
  /** the request's `x-request-id` */
  requestId: string;
  /** Unix milliseconds when the request arrived */
  createdAt: number;
  userId: string;
  apiKeyId: string;
  endpoint: string;
  /** HTTP status the client received */
  status: number;
  /** the body exactly as the client sent it */
  requestBody: Buffer;
  /** the JSON answer sent, or undefined when none was (a stream, an error written elsewhere) */
  responseBody: string | undefined;
}

/** How the body log is built. */
export interface RequestBodyLogOptions {
  store: Pick<RequestBodyStore, 'writeRequestBodies'>;
  /** bytes of each body kept at most */
  maxBytes: number;
  logger: Logger;
  /** milliseconds between two writes of the queue */
  intervalMs?: number;
  /** bytes of cut bodies waiting to be written at most; a capture beyond it is dropped (and counted) */
  queueLimitBytes?: number;
}

const defaultIntervalMs = 1_000;
const defaultQueueLimitBytes = 32 * 1024 * 1024;

/**
 * The optional log of request and response bodies (GATEWAY_REQUEST_BODY_LOG=on). `record` only cuts the bodies and
 * queues them: the queue is written in batches by a timer, off the request path. A full queue or a failing store
 * drops bodies (counted in `dropped`, logged at most every 10 s), never a request: bodies are a debugging aid, not
 * a record anyone is billed by.
 */
export class RequestBodyLog {
  /** captures dropped because the queue was full or their batch failed to write */
  dropped = 0;
  private queue: RequestBodyRecord[] = [];
  private queuedBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly logFailure: RateLimitedLog;
  private readonly logDrop: RateLimitedLog;

  constructor(private readonly options: RequestBodyLogOptions) {
    this.logFailure = createRateLimitedLog(options.logger, 'warn');
    this.logDrop = createRateLimitedLog(options.logger, 'warn');
  }

  /** Cuts both bodies at the cap and queues them for the next write; never throws, never waits. */
  record(capture: RequestBodyCapture): void {
    const limit = this.options.queueLimitBytes ?? defaultQueueLimitBytes;
    const request = cutToBytes(capture.requestBody, this.options.maxBytes);
    const response =
      capture.responseBody === undefined ? undefined : cutToBytes(capture.responseBody, this.options.maxBytes);
    const size = request.text.length + (response?.text.length ?? 0);
    if (this.queuedBytes + size > limit) {
      this.dropped += 1;
      this.logDrop(undefined, 'the request body log queue is full; bodies were dropped');
      return;
    }
    this.queuedBytes += size;
    this.queue.push({
      requestId: capture.requestId,
      createdAt: capture.createdAt,
      userId: capture.userId,
      apiKeyId: capture.apiKeyId,
      endpoint: capture.endpoint,
      status: capture.status,
      requestBody: request.text,
      requestBytes: request.bytes,
      requestTruncated: request.truncated,
      responseBody: response?.text ?? null,
      responseBytes: response?.bytes ?? 0,
      responseTruncated: response?.truncated ?? false,
    });
  }

  /** Starts writing the queue every interval. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.intervalMs ?? defaultIntervalMs);
    this.timer.unref();
  }

  /** Writes what is queued now (after any write still running); a failed write drops its bodies and is logged. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writeQueued());
    return this.writing;
  }

  /** Stops the timer and writes what is left; call after the HTTP server drained. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async writeQueued(): Promise<void> {
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    try {
      await this.options.store.writeRequestBodies(batch);
    } catch (error) {
      this.dropped += batch.length;
      this.logFailure(error, 'writing request bodies failed; they were dropped');
    }
  }
}
