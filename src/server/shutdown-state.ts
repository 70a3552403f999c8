/**
 * Whether this node is shutting down, as `/readyz` reports it: set by `begin()` when a graceful shutdown starts (before
 * any wait for the load balancer to notice) and, at the latest, when the app begins closing.
 */
export class ShutdownState {
  private begun = false;

  /** Marks the node as shutting down; later calls change nothing. */
  begin(): void {
    this.begun = true;
  }

  /** True once `begin()` was called. */
  get shuttingDown(): boolean {
    return this.begun;
  }
}
