import type { ClientSink } from './client-sink.js';
import type { ForwardingStop } from './forwarding-stop.js';
import { UpstreamAbortSignal } from './upstream-abort-signal.js';

/** The most bytes of a vendor stream read after its client left, when the services set none (`GATEWAY_ABANDONED_STREAM_DRAIN_MAX_BYTES`'s default). */
export const defaultAbandonedStreamDrainMaxBytes = 32 * 1024 * 1024;

/**
 * Who may still cancel one forwarded request, and what the gateway owes the vendor for it.
 *
 * Before the request is sent upstream, a client that leaves cancels everything (image fetches included) and nothing
 * is billed. Once it is sent, the vendor does and bills the work, so a client leaving no longer aborts it: a
 * non-streamed answer is read to its end (within the upstream timeouts) and billed from its usage; a stream is
 * drained, read on to its end without writing to anyone (same idle timeout, at most `drainMaxBytes`, in one of the
 * node's drain slots) so it is billed from the vendor's usage. A stream that cannot be drained (no slot free, past the
 * byte cap) is aborted, and it and any drain that ends without usage are charged their hold. A gateway shutting down
 * cuts what is left after its grace period by the same rule.
 */
export class ForwardingControl {
  private readonly upstreamAbort = new UpstreamAbortSignal();
  /** made only when something needs a real AbortSignal (remote image fetches) */
  private fetchController: AbortController | undefined;
  private readonly stopListeningToClient: () => void;
  private readonly stopListeningToShutdown: (() => void) | undefined;
  private readonly shutdown: ForwardingStop | undefined;
  private readonly stream: boolean;
  private readonly drainMaxBytes: number;
  private releaseDrain: (() => void) | undefined;
  private drainedBytes = 0;
  private clientGone = false;
  private stopped = false;
  private sent = false;
  private refused = false;

  constructor(options: {
    /** the client's answer: its leaving before the answer was complete cancels what may be cancelled */
    client: ClientSink;
    /** true when the client asked for a stream */
    stream: boolean;
    /** a graceful shutdown, whose end of grace period cuts the request; it also hands out the drain slots */
    stop?: ForwardingStop | undefined;
    /** the most bytes of a stream read after its client left; past it the stream is cut (default 32 MiB) */
    drainMaxBytes?: number | undefined;
  }) {
    this.stream = options.stream;
    this.shutdown = options.stop;
    this.drainMaxBytes = options.drainMaxBytes ?? defaultAbandonedStreamDrainMaxBytes;
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

  /** True while a stream whose client left is read on for its usage (not aborted, within its byte cap). */
  get draining(): boolean {
    return this.releaseDrain !== undefined && !this.upstreamAbort.aborted;
  }

  /** True when the last vendor sent to refused the request (a redirect or an error status): it did no billable work. */
  get refusedByVendor(): boolean {
    return this.refused;
  }

  /** Marks the request as sent; false (and nothing marked) when it was cancelled before. */
  markSent(): boolean {
    if (this.upstreamAbort.aborted) return false;
    this.sent = true;
    this.refused = false;
    return true;
  }

  /** Records that the vendor answered the request with a redirect or an error status. */
  markRefused(): void {
    this.refused = true;
  }

  /** Counts bytes of a vendor stream read after its client left; past the byte cap the stream is cut. */
  countDrainedBytes(bytes: number): void {
    if (!this.draining) return;
    this.drainedBytes += bytes;
    if (this.drainedBytes > this.drainMaxBytes) this.abort();
  }

  /** Stops listening to the client and to shutdown, and gives back the drain slot. */
  dispose(): void {
    this.stopListeningToClient();
    this.stopListeningToShutdown?.();
    this.releaseDrain?.();
  }

  private abort(): void {
    const reason = new DOMException('The forwarded request was cancelled.', 'AbortError');
    this.upstreamAbort.abort(reason);
    this.fetchController?.abort(reason);
  }

  private readonly onClientLeave = (): void => {
    if (this.clientGone) return;
    this.clientGone = true;
    if (!this.sent) {
      this.abort();
      return;
    }
    // A non-streamed request already sent is read to its end so it is billed from the vendor's usage.
    if (!this.stream || this.stopped) return;
    // A stream is drained in one of the node's slots; without a free one it is cut and charged its hold.
    this.releaseDrain = this.shutdown?.startDrain?.();
    if (!this.releaseDrain) this.abort();
  };

  private readonly onStop = (): void => {
    this.stopped = true;
    this.abort();
  };
}
