import type { Logger } from 'pino';

/** A log call that writes the first failure, then at most one per `gapMs` with the count of those left out. */
export type RateLimitedLog = (error: unknown, message: string) => void;

/**
 * A failing store fails every timer tick and every request that needs it: one line per `gapMs` says so without
 * flooding the log (the count of lines left out is in `failuresLeftOut`).
 */
export function createRateLimitedLog(logger: Logger, level: 'warn' | 'error', gapMs = 10_000): RateLimitedLog {
  let lastAt = Number.NEGATIVE_INFINITY;
  let leftOut = 0;
  return (error, message) => {
    const now = Date.now();
    if (now - lastAt < gapMs) {
      leftOut += 1;
      return;
    }
    lastAt = now;
    logger[level]({ err: error, failuresLeftOut: leftOut }, message);
    leftOut = 0;
  };
}
