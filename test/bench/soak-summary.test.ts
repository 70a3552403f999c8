import { describe, expect, it } from 'vitest';
import { computeGrowth, median, summarizeSoak, type SoakSample } from '../../bench/soak-summary.js';

const minute = 60_000;

/** One sample every 10 s for `minutes`, each quantity given as a function of the elapsed minutes. */
function samplesOver(
  minutes: number,
  values: { rss: (minutes: number) => number; fds?: (minutes: number) => number; delay?: (minutes: number) => number },
): SoakSample[] {
  return Array.from({ length: minutes * 6 + 1 }, (_, index) => {
    const elapsedMs = index * 10_000;
    const at = elapsedMs / minute;
    return {
      elapsedMs,
      rssBytes: values.rss(at),
      heapUsedBytes: values.rss(at) / 2,
      openFileDescriptors: values.fds?.(at) ?? 40,
      eventLoopDelayP99Ms: values.delay?.(at) ?? 2,
      finishedRequests: index * 100,
      harnessEventLoopDelayP99Ms: index % 2 === 0 ? 1 : 5,
      loadAverage: 1.5,
    };
  });
}

describe('summarizeSoak', () => {
  it('measures growth from the first minute after the warm-up to the last minute, ignoring the warm-up', () => {
    // 100 MB while warming up, then 200 MB at minute 5 rising by 1 MB a minute: +25 MB by minute 30.
    const samples = samplesOver(30, { rss: (at) => (at < 5 ? 100e6 : 200e6 + (at - 5) * 1e6) });
    const summary = summarizeSoak(samples, { warmupMs: 5 * minute, windowMs: minute });
    // Baseline: the samples of minute 5 to 6 (5:00 ... 5:50), median at 5:25; end: 29:10 ... 30:00, median at 29:35.
    expect(summary.rss.baseline).toBeCloseTo(200e6 + (25 / 60) * 1e6);
    expect(summary.rss.end).toBeCloseTo(200e6 + (24 + 35 / 60) * 1e6);
    expect(summary.rss.growthPercent).toBeCloseTo(((24 + 35 / 60 - 25 / 60) / (200 + 25 / 60)) * 100);
    // About 12 %: a slow leak of 1 MB a minute fails the target over 25 minutes.
    expect(summary.passes.rss).toBe(false);
    expect(summary.measuredSamples).toBe(25 * 6 + 1);
  });

  it('fails the targets at 10 % growth and at an event-loop p99 of 20 ms in any interval', () => {
    const samples = samplesOver(10, {
      rss: (at) => 100e6 * (1 + 0.011 * at),
      fds: (at) => (at > 9 ? 44 : 40),
      delay: (at) => (Math.abs(at - 7) < 0.01 ? 20 : 3),
    });
    const summary = summarizeSoak(samples, { warmupMs: minute, windowMs: minute });
    expect(summary.rss.growthPercent).toBeGreaterThan(8.8);
    expect(summary.rss.growthPercent).toBeLessThan(10);
    expect(summary.passes.rss).toBe(true);
    expect(summary.openFileDescriptors).toEqual({ baseline: 40, end: 44, growthPercent: 10 });
    expect(summary.passes.openFileDescriptors).toBe(false);
    expect(summary.eventLoopDelayP99Ms).toEqual({ median: 3, worst: 20 });
    // 28 intervals at 1 ms and 27 at 5 ms after the warm-up.
    expect(summary.harnessEventLoopDelayP99Ms).toEqual({ median: 1, worst: 5 });
    expect(summary.medianLoadAverage).toBe(1.5);
    expect(summary.passes.eventLoopDelay).toBe(false);
  });

  it('does not let one garbage-collection peak in a window decide the growth', () => {
    const samples = samplesOver(6, { rss: (at) => (Math.abs(at - 5.5) < 0.01 ? 900e6 : 100e6) });
    expect(summarizeSoak(samples, { warmupMs: minute, windowMs: minute }).rss.growthPercent).toBe(0);
  });

  it('refuses a run whose last window overlaps the first one after the warm-up', () => {
    const samples = samplesOver(2, { rss: () => 1 });
    expect(() => summarizeSoak(samples, { warmupMs: minute, windowMs: minute })).toThrow(/too short/);
    expect(() => summarizeSoak(samples, { warmupMs: 3 * minute, windowMs: minute })).toThrow(
      /no sample after the warm-up/,
    );
  });
});

describe('computeGrowth and median', () => {
  it('computes percent growth, shrinking as negative, and from zero', () => {
    expect(computeGrowth(200, 210).growthPercent).toBeCloseTo(5);
    expect(computeGrowth(200, 150).growthPercent).toBeCloseTo(-25);
    expect(computeGrowth(0, 0).growthPercent).toBe(0);
    expect(computeGrowth(0, 1).growthPercent).toBe(Number.POSITIVE_INFINITY);
  });

  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });
});
