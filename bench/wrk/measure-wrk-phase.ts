// One wrk run against one path, with the CPU time and peak RSS of the process in the middle over the same run.
import type { ComparisonPath } from './comparison-paths.js';
import { failedRequests, requestsPerSecond, type WrkResult } from './parse-wrk-result.js';
import { readProcessCpuMs, samplePeakRss } from './read-process-usage.js';
import { runWrk } from './run-wrk.js';

/** What one run measured. */
export interface WrkPhaseResult {
  requestsPerSecond: number;
  /**
   * CPU time of the process in the middle per completed request, in milliseconds (our gateway's counted until it had
   * written every settled request); undefined for `direct`
   */
  cpuPerRequestMs: number | undefined;
  /** request time (the whole response, streams included) p50 and p99, in milliseconds */
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** largest VmRSS of the process in the middle sampled every 50 ms during the run, in bytes; undefined for `direct` */
  peakRssBytes: number | undefined;
  wrk: WrkResult;
}

/** Runs wrk with `body`; throws when any request failed, so errors can never pass for speed. */
export async function measureWrkPhase(
  path: ComparisonPath,
  body: string,
  run: { connections: number; durationSeconds: number; core: string | undefined },
): Promise<WrkPhaseResult> {
  const pid = path.process?.pid;
  // Rows of the warm-up or of the run before are not this run's to pay for; this run's are, even when written after it.
  await path.waitUntilSettled?.();
  const cpuBefore = pid === undefined ? 0 : readProcessCpuMs(pid);
  const rss = pid === undefined ? undefined : samplePeakRss(pid);
  let wrk: WrkResult;
  let peakRssBytes: number | undefined;
  try {
    wrk = await runWrk({ url: path.chatUrl, headers: path.headers, body, ...run });
  } finally {
    peakRssBytes = rss?.stop();
  }
  // The peak is the run's; the settling after it may start the tokenizer worker for the streams wrk cut at its end.
  await path.waitUntilSettled?.();
  const cpuMs = pid === undefined ? undefined : readProcessCpuMs(pid) - cpuBefore;
  if (wrk.requests === 0 || failedRequests(wrk) > 0) {
    throw new Error(
      `${path.label}: ${wrk.requests} requests completed, failures ${JSON.stringify(wrk.errors)}: the path does not answer correctly under load`,
    );
  }
  return {
    requestsPerSecond: requestsPerSecond(wrk),
    cpuPerRequestMs: cpuMs === undefined ? undefined : cpuMs / wrk.requests,
    latencyP50Ms: wrk.latencyMicros.p50 / 1000,
    latencyP99Ms: wrk.latencyMicros.p99 / 1000,
    peakRssBytes,
    wrk,
  };
}
