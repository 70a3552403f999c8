/** A cache whose freshness checks are shared by concurrent callers. */
export interface CheckableCache {
  /** Unix milliseconds when the latest check started (set when it really starts) */
  lastCheckStartedAt(): number;
  /** the check in flight, if any */
  pendingCheck(): Promise<void> | undefined;
  /** starts a check, or joins the one in flight */
  startCheck(): Promise<void>;
  /** Unix milliseconds */
  clock(): number;
}

/**
 * Resolves once a check that started after `since` has finished, so a change made just before a request is
 * always seen. Checks stay at least `minimumGapMs` apart and are shared, so a flood of misses costs at most one
 * check per gap. A failed check counts as done: the caller then decides with what it has.
 */
export async function waitForCheckStartedAfter(
  cache: CheckableCache,
  since: number,
  minimumGapMs: number,
): Promise<void> {
  for (;;) {
    const pending = cache.pendingCheck();
    if (pending) {
      const startedAfter = cache.lastCheckStartedAt() > since;
      await pending.catch(() => undefined);
      if (startedAfter) return;
      continue;
    }
    if (cache.lastCheckStartedAt() > since) return;
    const wait = cache.lastCheckStartedAt() + minimumGapMs - cache.clock();
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      continue;
    }
    await cache.startCheck().catch(() => undefined);
  }
}
