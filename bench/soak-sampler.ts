// Takes one soak sample of the gateway process: resident memory and open descriptors from /proc, heap in use and the
// event-loop delay from the gateway's own /metrics (prom-client's default metrics), and as a control the harness's
// own event-loop delay and the machine's load average.
import { readdir, readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import type { IntervalHistogram } from 'node:perf_hooks';
import { request } from 'undici';
import type { SoakSample } from './soak-summary.js';

/**
 * prom-client's event-loop monitor (`monitorEventLoopDelay`, resolution 10 ms by default) records the time between
 * two of its timer turns, so an idle loop reads about 10 ms; the delay is what exceeds the resolution.
 */
export const eventLoopMonitorResolutionMs = 10;

/** Reads one sample of process `pid` whose /metrics is at `gatewayUrl`. Reading /metrics starts a new delay interval. */
export async function takeSoakSample(options: {
  pid: number;
  gatewayUrl: string;
  elapsedMs: number;
  finishedRequests: number;
  /** the harness's own delay monitor (resolution `eventLoopMonitorResolutionMs`); read and reset here */
  harnessMonitor: IntervalHistogram;
}): Promise<SoakSample> {
  const [rssBytes, openFileDescriptors, metrics] = await Promise.all([
    readResidentBytes(options.pid),
    readdir(`/proc/${options.pid}/fd`).then((entries) => entries.length),
    readMetricsText(options.gatewayUrl),
  ]);
  const lagP99Seconds = readSample(metrics, 'nodejs_eventloop_lag_p99_seconds');
  const harnessP99Nanoseconds = options.harnessMonitor.percentile(99);
  options.harnessMonitor.reset();
  return {
    elapsedMs: options.elapsedMs,
    rssBytes,
    heapUsedBytes: readSample(metrics, 'nodejs_heap_size_used_bytes'),
    openFileDescriptors,
    eventLoopDelayP99Ms: Math.max(0, lagP99Seconds * 1000 - eventLoopMonitorResolutionMs),
    finishedRequests: options.finishedRequests,
    harnessEventLoopDelayP99Ms: Math.max(0, harnessP99Nanoseconds / 1e6 - eventLoopMonitorResolutionMs),
    loadAverage: loadavg()[0] ?? 0,
  };
}

async function readResidentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

async function readMetricsText(gatewayUrl: string): Promise<string> {
  const response = await request(`${gatewayUrl}/metrics`, { headersTimeout: 10_000, bodyTimeout: 10_000 });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`/metrics answered ${response.statusCode}`);
  return text;
}

/** The value of an unlabelled metric line `name value`; throws when the gateway does not expose it. */
export function readSample(metricsText: string, name: string): number {
  for (const line of metricsText.split('\n')) {
    if (line.startsWith(`${name} `))
      return Number(
        line
          .slice(name.length + 1)
          .trim()
          .split(' ')[0],
      );
  }
  throw new Error(`${name} is missing from the gateway's /metrics`);
}
