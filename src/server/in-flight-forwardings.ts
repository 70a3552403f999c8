import type { ForwardingStop } from '../dispatch/forwarding-stop.js';

/** How many streams whose client left are read on at once when the gateway is built without a number (`GATEWAY_ABANDONED_STREAM_DRAINS`'s default). */
export const defaultAbandonedStreamDrains = 64;

/**
 * The /v1 requests being forwarded and settled, so a graceful shutdown can cut the ones still running when its grace
 * period ends and wait until every one of them is settled before the last billing batch is written. It also bounds
 * the streams read on after their client left (drains): at most `maxAbandonedStreamDrains` at once per node.
 */
export class InFlightForwardings implements ForwardingStop {
  private readonly pending = new Set<Promise<unknown>>();
  // A Set, not an AbortSignal: every request adds and removes a listener, which an EventTarget makes dear.
  private readonly stopListeners = new Set<() => void>();
  private stopCalled = false;
  private readonly maxAbandonedStreamDrains: number;
  private activeDrains = 0;

  constructor(
    options: {
      /** streams read on at once after their client left (0 = none: such streams are cut) */ maxAbandonedStreamDrains?: number;
    } = {},
  ) {
    this.maxAbandonedStreamDrains = options.maxAbandonedStreamDrains ?? defaultAbandonedStreamDrains;
  }

  /** How many streams whose client left are being read on now. */
  get drainCount(): number {
    return this.activeDrains;
  }

  startDrain(): (() => void) | undefined {
    if (this.stopCalled || this.activeDrains >= this.maxAbandonedStreamDrains) return undefined;
    this.activeDrains++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.activeDrains--;
    };
  }

  /** True once `stop()` was called: forwardings still waiting on a vendor end and are settled by the abort rule. */
  get stopped(): boolean {
    return this.stopCalled;
  }

  onStop(listener: () => void): () => void {
    this.stopListeners.add(listener);
    return () => this.stopListeners.delete(listener);
  }

  /** How many forwardings are running. */
  get size(): number {
    return this.pending.size;
  }

  /** Follows one forwarding until it finished, whether it succeeded or failed. */
  track(work: Promise<unknown>): void {
    this.pending.add(work);
    const forget = (): void => {
      this.pending.delete(work);
    };
    work.then(forget, forget);
  }

  /** Cuts every forwarding still running (and any started later). */
  stop(): void {
    if (this.stopCalled) return;
    this.stopCalled = true;
    for (const listener of [...this.stopListeners]) listener();
    this.stopListeners.clear();
  }

  /** Resolves once every forwarding tracked so far (and any started meanwhile) has finished. */
  async drained(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
