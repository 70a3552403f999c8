import type { ClientSink } from './client-sink.js';

/**
 * Who may still cancel one forwarded request, and what the gateway owes the vendor for it.
 *
 * Before the request is sent upstream, a client that leaves cancels everything (image fetches included) and nothing
 * is billed. Once it is sent, the vendor does and bills the work: a non-streamed answer is then read to its end (within
 * the upstream timeouts) and billed from its usage, so a client leaving no longer aborts it; a stream is aborted and
 * billed for what it generated plus the estimated input. A gateway shutting down cuts what is left after its grace
 * period by the same rule.
 */
export class ForwardingControl {
  private readonly controller = new AbortController();
  private readonly stopListeningToClient: () => void;
  private readonly stream: boolean;
  private readonly stopSignal: AbortSignal | undefined;
  private clientGone = false;
  private stopped = false;
  private sent = false;

  constructor(options: {
    /** the client's answer: its leaving before the answer was complete cancels what may be cancelled */
    client: ClientSink;
    /** true when the client asked for a stream */
    stream: boolean;
    /** aborted when a shutdown's grace period is over */
    stopSignal?: AbortSignal | undefined;
  }) {
    this.stream = options.stream;
    this.stopSignal = options.stopSignal;
    this.stopListeningToClient = options.client.onClientLeave(this.onClientLeave);
    // A client that left while its body was read or it was admitted sent no 'close' this listener could hear.
    if (options.client.gone) this.onClientLeave();
    if (this.stopSignal?.aborted) this.onStop();
    else this.stopSignal?.addEventListener('abort', this.onStop, { once: true });
  }

  /** Aborts upstream work: image fetches, a request not yet sent, a stream, or anything left when shutdown's grace ended. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the client left before its answer was complete, or shutdown cut the request: no further channel is tried. */
  get abandoned(): boolean {
    return this.clientGone || this.stopped;
  }

  /** True once the request was handed to a vendor: from then on it is billed for what the vendor did. */
  get sentUpstream(): boolean {
    return this.sent;
  }

  /** Marks the request as sent; false (and nothing marked) when it was cancelled before. */
  markSent(): boolean {
    if (this.controller.signal.aborted) return false;
    this.sent = true;
    return true;
  }

  /** Stops listening to the client and to shutdown. */
  dispose(): void {
    this.stopListeningToClient();
    this.stopSignal?.removeEventListener('abort', this.onStop);
  }

  private readonly onClientLeave = (): void => {
    if (this.clientGone) return;
    this.clientGone = true;
    // A non-streamed request already sent is read to its end so it is billed from the vendor's usage.
    if (this.stream || !this.sent) this.controller.abort();
  };

  private readonly onStop = (): void => {
    this.stopped = true;
    this.controller.abort();
  };
}
