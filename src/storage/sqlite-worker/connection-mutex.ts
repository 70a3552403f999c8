/**
 * Hands the one SQLite connection to one holder at a time, in request order: a transaction holds it from BEGIN to
 * COMMIT, so no other caller's statement lands inside it (as Kysely's own SqliteDriver does).
 */
export class ConnectionMutex {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  /** Resolves once the caller holds the connection; pair with `unlock`. */
  lock(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Passes the connection to the next waiter (it stays held), or frees it. */
  unlock(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#held = false;
    else next();
  }

  /** Runs `work` while holding the connection. */
  async runExclusive<Result>(work: () => Promise<Result>): Promise<Result> {
    await this.lock();
    try {
      return await work();
    } finally {
      this.unlock();
    }
  }
}
