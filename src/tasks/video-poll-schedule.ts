/** Milliseconds. */
const second = 1_000;

/**
 * When to poll a vendor next, about the spec's intervals: every 5 s for videos up to 10 s (growing to 10 s after the
 * first minute), every 15 s for longer ones (growing to 30 s); after a vendor 429/5xx or a transport failure the
 * wait doubles with each failure in a row, up to 2 minutes, or follows the vendor's Retry-After when it is longer.
 */
export function nextPollDelayMs(
  task: { seconds: number; createdAt: number },
  now: number,
  failuresInARow: number,
  retryAfterMs?: number,
): number {
  const short = task.seconds <= 10;
  const elapsed = now - task.createdAt;
  const base = short
    ? elapsed < 60 * second
      ? 5 * second
      : 10 * second
    : elapsed < 60 * second
      ? 15 * second
      : 30 * second;
  if (failuresInARow <= 0) return base;
  const backedOff = Math.min(120 * second, base * 2 ** failuresInARow);
  return Math.max(backedOff, retryAfterMs ?? 0);
}

/** The vendor's Retry-After (seconds, or an HTTP date) in milliseconds from `now`, or undefined. */
export function parseRetryAfterMs(retryAfter: string | undefined, now: number): number | undefined {
  if (retryAfter === undefined) return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 3_600) * second;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.min(date - now, 3_600 * second));
}
