/** The holds of requests in flight on this node: a count and their sum, moved as holds are taken and released. */
export class HoldTally {
  /** holds taken and not yet released */
  open = 0;
  /** micro-units they hold */
  heldMicroUnits = 0;

  /** A hold of `amount` micro-units was taken. */
  take(amount: number): void {
    this.open += 1;
    this.heldMicroUnits += amount;
  }

  /** A hold of `amount` micro-units was released (settled or refused). */
  release(amount: number): void {
    this.open -= 1;
    this.heldMicroUnits -= amount;
  }
}
