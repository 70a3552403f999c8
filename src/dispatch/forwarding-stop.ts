/** A graceful shutdown as a forwarded request sees it: whether its grace period is over, and a way to hear when it is. */
export interface ForwardingStop {
  /** true once the grace period is over */
  readonly stopped: boolean;
  /** Calls `listener` when the grace period ends; returns the function that stops listening. */
  onStop(listener: () => void): () => void;
  /**
   * A slot for reading on a stream its client left (so it is billed from the vendor's usage): the function that gives
   * it back, or undefined when every slot is taken or shutdown began (the stream is then cut and charged its hold).
   */
  startDrain?(): (() => void) | undefined;
}
