import type { ClientSink } from './client-sink.js';
import type { ForwardingStop } from './forwarding-stop.js';
import { UpstreamAbortSignal } from './upstream-abort-signal.js';

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
  private readonly upstreamAbort = new UpstreamAbortSignal();
  /** made only when something needs a real AbortSignal (remote image fetches) */
  private fetchController: AbortController | undefined;
  private readonly stopListeningToClient: () => void;
  private readonly stopListeningToShutdown: (() => void) | undefined;
  private readonly stream: boolean;
  private clientGone = false;
  private stopped = false;
  private sent = false;

  constructor(options: {
    /** the client's answer: its leaving before the answer was complete cancels what may be cancelled */
    client: ClientSink;
    /** true when the client asked for a stream */
    stream: boolean;
    /** a graceful shutdown, whose end of grace period cuts the request */
    stop?: ForwardingStop | undefined;
  }) {
    this.stream = options.stream;
    this.stopListeningToClient = options.client.onClientLeave(this.onClientLeave);
    // A client that left while its body was read or it was admitted sent no 'close' this listener could hear.
    if (options.client.gone) this.onClientLeave();
    if (options.stop?.stopped) this.onStop();
    else this.stopListeningToShutdown = options.stop?.onStop(this.onStop);
  }

  /** True once upstream work was aborted: the client left (see the class comment) or shutdown cut the request. */
  get aborted(): boolean {
    return this.upstreamAbort.aborted;
  }

  /** The signal for the vendor request (undici takes it as an EventEmitter). */
  get upstreamSignal(): UpstreamAbortSignal {
    return this.upstreamAbort;
  }

  /** An AbortSignal aborted with the request, for work that needs one (remote image fetches); made on first use. */
  get signal(): AbortSignal {
    if (!this.fetchController) {
      this.fetchController = new AbortController();
      if (this.upstreamAbort.aborted) this.fetchController.abort(this.upstreamAbort.reason);
    }
    return this.fetchController.signal;
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
    if (this.upstreamAbort.aborted) return false;
    this.sent = true;
    return true;
  }

  /** Stops listening to the client and to shutdown. */
  dispose(): void {
    this.stopListeningToClient();
    this.stopListeningToShutdown?.();
  }

  private abort(): void {
    const reason = new DOMException('The forwarded request was cancelled.', 'AbortError');
    this.upstreamAbort.abort(reason);
    this.fetchController?.abort(reason);
  }

  private readonly onClientLeave = (): void => {
    if (this.clientGone) return;
    this.clientGone = true;
    // A non-streamed request already sent is read to its end so it is billed from the vendor's usage.
    if (this.stream || !this.sent) this.abort();
  };

  private readonly onStop = (): void => {
    this.stopped = true;
    this.abort();
  };
}
