import type { ForwardingStop } from '../dispatch/forwarding-stop.js';

/**
 * The /v1 requests being forwarded and settled, so a graceful shutdown can cut the ones still running when its grace
 * period ends and wait until every one of them is settled before the last billing batch is written.
 */
export class InFlightForwardings implements ForwardingStop {
  private readonly pending = new Set<Promise<unknown>>();
  // A Set, not an AbortSignal: every request adds and removes a listener, which an EventTarget makes dear.
  private readonly stopListeners = new Set<() => void>();
  private stopCalled = false;

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
