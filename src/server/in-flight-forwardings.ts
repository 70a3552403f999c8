import { setMaxListeners } from 'node:events';

/**
 * The /v1 requests being forwarded and settled, so a graceful shutdown can cut the ones still running when its grace
 * period ends and wait until every one of them is settled before the last billing batch is written.
 */
export class InFlightForwardings {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly stopController = new AbortController();

  constructor() {
    // Every request in flight listens to the stop signal: no listener count is a leak here.
    setMaxListeners(0, this.stopController.signal);
  }

  /** Aborted by `stop()`: forwardings still waiting on a vendor end and are settled by the abort rule. */
  get stopSignal(): AbortSignal {
    return this.stopController.signal;
  }

  /** How many forwardings are running. */
  get size(): number {
    return this.pending.size;
  }

  /** Follows one forwarding until it finished, whether it succeeded or failed. */
  track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  /** Cuts every forwarding still running (and any started later). */
  stop(): void {
    this.stopController.abort();
  }

  /** Resolves once every forwarding tracked so far (and any started meanwhile) has finished. */
  async drained(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
