/** Buckets a window is cut into: the window slides one bucket (a tenth of its length) at a time. */
const bucketCount = 10;

/** Successes and failures counted in a window. */
export interface WindowCounts {
  successes: number;
  failures: number;
}

/**
 * Successes and failures over the last `windowMs` milliseconds, in a fixed ring of buckets: O(1) to record and to
 * read, a constant size whatever the traffic. A bucket is reused once it is older than the window.
 */
export class OutcomeWindow {
  private readonly bucketMs: number;
  /** which bucket number (time / bucketMs) each slot holds; -Infinity for none */
  private readonly bucketNumbers = new Float64Array(bucketCount).fill(-Infinity);
  private readonly successes = new Uint32Array(bucketCount);
  private readonly failures = new Uint32Array(bucketCount);

  constructor(windowMs: number) {
    this.bucketMs = Math.max(1, Math.ceil(windowMs / bucketCount));
  }

  /** Counts one outcome at `now` (Unix milliseconds). */
  record(failed: boolean, now: number): void {
    const bucketNumber = Math.floor(now / this.bucketMs);
    const slot = bucketNumber % bucketCount;
    if (this.bucketNumbers[slot] !== bucketNumber) {
      this.bucketNumbers[slot] = bucketNumber;
      this.successes[slot] = 0;
      this.failures[slot] = 0;
    }
    if (failed) this.failures[slot]! += 1;
    else this.successes[slot]! += 1;
  }

  /** The counts of the buckets still inside the window at `now`. */
  countsAt(now: number): WindowCounts {
    const newest = Math.floor(now / this.bucketMs);
    let successes = 0;
    let failures = 0;
    for (let slot = 0; slot < bucketCount; slot++) {
      const bucketNumber = this.bucketNumbers[slot]!;
      if (bucketNumber > newest - bucketCount && bucketNumber <= newest) {
        successes += this.successes[slot]!;
        failures += this.failures[slot]!;
      }
    }
    return { successes, failures };
  }

  /** Forgets every count (a breaker that opens or closes starts a fresh window). */
  clear(): void {
    this.bucketNumbers.fill(-Infinity);
  }
}
