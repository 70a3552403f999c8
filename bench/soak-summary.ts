// The soak run's arithmetic: how much the gateway's resident memory, heap and open file descriptors grew from the end
// of the warm-up to the end of the run, and how long its event loop was held up, checked against issue 37's targets.

/** One look at the gateway process during the soak run. */
export interface SoakSample {
  /** milliseconds since the traffic started */
  elapsedMs: number;
  /** resident set size, in bytes (/proc/<pid>/status VmRSS) */
  rssBytes: number;
  /** V8 heap in use, in bytes */
  heapUsedBytes: number;
  /** entries of /proc/<pid>/fd: sockets, files, pipes and the rest */
  openFileDescriptors: number;
  /** 99th percentile of the event-loop delay since the previous sample, in milliseconds */
  eventLoopDelayP99Ms: number;
  /** requests the harness had finished (answered, failed or aborted) by then */
  finishedRequests: number;
  /**
   * The same p99 measured in the harness's own process over the same interval: a control, since a loop that waits for
   * a CPU (a busy machine) is delayed in every process, while a loop blocked by the gateway's own work is not
   */
  harnessEventLoopDelayP99Ms: number;
  /** the machine's one-minute load average then */
  loadAverage: number;
}

/** How one quantity moved from the start of the measured part to the end of the run. */
export interface SoakGrowth {
  /** median over the first window after the warm-up */
  baseline: number;
  /** median over the last window of the run */
  end: number;
  /** (end − baseline) / baseline, in percent */
  growthPercent: number;
}

/** The targets of issue 37: flat memory and descriptors after the warm-up, a responsive event loop. */
export const soakTargets = {
  /** the largest allowed growth of RSS and of open file descriptors after the warm-up, in percent */
  maxGrowthPercent: 10,
  /** the largest allowed event-loop delay p99 of any sampling interval after the warm-up, in milliseconds */
  maxEventLoopDelayP99Ms: 20,
} as const;

/** What the soak report states. */
export interface SoakSummary {
  /** samples after the warm-up that the figures come from */
  measuredSamples: number;
  rss: SoakGrowth;
  heapUsed: SoakGrowth;
  openFileDescriptors: SoakGrowth;
  /** event-loop delay p99 over the sampling intervals after the warm-up, in milliseconds */
  eventLoopDelayP99Ms: { median: number; worst: number };
  /** the harness's own event-loop delay p99 over the same intervals (the control), in milliseconds */
  harnessEventLoopDelayP99Ms: { median: number; worst: number };
  /** the median one-minute load average after the warm-up */
  medianLoadAverage: number;
  /** whether each target holds */
  passes: { rss: boolean; openFileDescriptors: boolean; eventLoopDelay: boolean };
}

/**
 * Summarizes `samples` (in time order): the baseline is the median of the samples in the first `windowMs` after
 * `warmupMs`, the end the median of those in the last `windowMs`; medians, so one garbage collection landing just
 * before or after a sample does not decide the result. The two windows must not overlap.
 */
export function summarizeSoak(
  samples: readonly SoakSample[],
  options: { warmupMs: number; windowMs: number },
): SoakSummary {
  const measured = samples.filter((sample) => sample.elapsedMs >= options.warmupMs);
  const last = measured.at(-1);
  if (last === undefined) throw new Error(`no sample after the warm-up of ${options.warmupMs} ms`);
  const baselineEnd = options.warmupMs + options.windowMs;
  const endStart = last.elapsedMs - options.windowMs;
  if (endStart < baselineEnd) {
    throw new Error(
      `the run is too short: its last ${options.windowMs} ms overlap the first ${options.windowMs} ms after the warm-up`,
    );
  }
  const baselineWindow = measured.filter((sample) => sample.elapsedMs < baselineEnd);
  const endWindow = measured.filter((sample) => sample.elapsedMs > endStart);
  if (baselineWindow.length === 0) throw new Error('no sample in the first window after the warm-up');
  const growthOf = (read: (sample: SoakSample) => number): SoakGrowth =>
    computeGrowth(median(baselineWindow.map(read)), median(endWindow.map(read)));
  const rss = growthOf((sample) => sample.rssBytes);
  const openFileDescriptors = growthOf((sample) => sample.openFileDescriptors);
  const spreadOf = (values: number[]): { median: number; worst: number } => ({
    median: median(values),
    worst: Math.max(...values),
  });
  const eventLoopDelayP99Ms = spreadOf(measured.map((sample) => sample.eventLoopDelayP99Ms));
  return {
    measuredSamples: measured.length,
    rss,
    heapUsed: growthOf((sample) => sample.heapUsedBytes),
    openFileDescriptors,
    eventLoopDelayP99Ms,
    harnessEventLoopDelayP99Ms: spreadOf(measured.map((sample) => sample.harnessEventLoopDelayP99Ms)),
    medianLoadAverage: median(measured.map((sample) => sample.loadAverage)),
    passes: {
      rss: rss.growthPercent < soakTargets.maxGrowthPercent,
      openFileDescriptors: openFileDescriptors.growthPercent < soakTargets.maxGrowthPercent,
      eventLoopDelay: eventLoopDelayP99Ms.worst < soakTargets.maxEventLoopDelayP99Ms,
    },
  };
}

/** The growth from `baseline` to `end` in percent; a baseline of 0 grows by 0 % to 0 and infinitely to anything else. */
export function computeGrowth(baseline: number, end: number): SoakGrowth {
  const growthPercent =
    baseline === 0 ? (end === 0 ? 0 : Number.POSITIVE_INFINITY) : ((end - baseline) / baseline) * 100;
  return { baseline, end, growthPercent };
}

/** The median of `values` (the mean of the middle two for an even count); throws on none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('the median of no values');
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
