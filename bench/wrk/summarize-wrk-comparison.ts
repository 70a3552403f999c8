// Turns the runs of the wrk comparison into medians per path, the gateway's ratios to its peers, and the issue's
// targets as PASS or FAIL. Pure: the report and its unit test share it.
import { pairedSpread, spreadOf, type Spread } from '../statistics.js';
import { comparisonPathNames, type ComparisonPathName } from './comparison-paths.js';

/** What one run of every measurement gave for one path; CPU and RSS are undefined for `direct` (nothing in the middle). */
export interface PathRound {
  /** non-streamed requests per second at 50 connections */
  requestsPerSecond: number;
  /** CPU time of the process in the middle per non-streamed request, in milliseconds */
  cpuPerRequestMs: number | undefined;
  /** burst streams (22 events sent at once) completed per second at 50 connections */
  burstRequestsPerSecond: number;
  /** paced streams (22 events 5 ms apart), 50 at a time: CPU time per stream in milliseconds, p99 of the whole stream's time in milliseconds, peak RSS in bytes */
  pacedCpuPerStreamMs: number | undefined;
  pacedP99Ms: number;
  pacedPeakRssBytes: number | undefined;
  /** time to the first event of sequential burst streams, in milliseconds */
  firstEventP50Ms: number;
  firstEventP99Ms: number;
}

/** Medians (with range) of a path's runs, and its time to first event minus direct's, per round. */
export interface PathSummary {
  requestsPerSecond: Spread;
  cpuPerRequestMs: Spread | undefined;
  burstRequestsPerSecond: Spread;
  pacedCpuPerStreamMs: Spread | undefined;
  pacedP99Ms: Spread;
  pacedPeakRssBytes: Spread | undefined;
  firstEventP50Ms: Spread;
  firstEventP99Ms: Spread;
  addedFirstEventP50Ms: Spread;
  addedFirstEventP99Ms: Spread;
}

/** One of the targets. */
export interface TargetVerdict {
  target: string;
  goal: string;
  /** the measured value, in the goal's unit */
  measured: number;
  unit: string;
  passed: boolean;
}

/** Everything the report shows. */
export interface ComparisonSummary {
  paths: Record<ComparisonPathName, PathSummary>;
  /** per round, gateway's non-streamed requests per second divided by the peer's */
  gatewayToProxy: Spread;
  gatewayToPortkey: Spread;
  /** per round, our gateway's CPU per non-streamed request minus the same gateway's with billing off, in milliseconds */
  billingCpuPerRequestMs: Spread;
  /** per round, that difference divided by the reference proxy's CPU per request */
  billingCpuToProxy: Spread;
  targets: TargetVerdict[];
}

/** Peak RSS limit at 50 paced streams: 160 MB, decimal as the report prints it. */
const peakRssLimitBytes = 160e6;

/** `rounds[path]` holds one entry per run, in run order. */
export function summarizeWrkComparison(rounds: Record<ComparisonPathName, PathRound[]>): ComparisonSummary {
  const paths = Object.fromEntries(
    comparisonPathNames.map((name) => [name, summarizePath(rounds[name], rounds.direct)]),
  ) as Record<ComparisonPathName, PathSummary>;
  const throughput = (name: ComparisonPathName) => rounds[name].map((round) => round.requestsPerSecond);
  const divide = (left: number, right: number) => left / right;
  const gatewayToProxy = pairedSpread(throughput('gateway'), throughput('proxy'), divide);
  const gatewayToPortkey = pairedSpread(throughput('gateway'), throughput('portkey'), divide);
  const cpu = (name: ComparisonPathName) => rounds[name].map((round) => round.cpuPerRequestMs ?? Number.NaN);
  const billingCpuPerRequestMs = pairedSpread(cpu('gateway'), cpu('unbilled'), (left, right) => left - right);
  const billingCpuToProxy = pairedSpread(billingCpuPerRequestMs.values, cpu('proxy'), divide);
  const gateway = paths.gateway;
  const pacedCpuToProxy =
    (gateway.pacedCpuPerStreamMs?.median ?? Number.NaN) / (paths.proxy.pacedCpuPerStreamMs?.median ?? Number.NaN);
  const verdict = (target: string, goal: string, measured: number, unit: string, passed: boolean): TargetVerdict => ({
    target,
    goal,
    measured,
    unit,
    passed,
  });
  return {
    paths,
    gatewayToProxy,
    gatewayToPortkey,
    billingCpuPerRequestMs,
    billingCpuToProxy,
    targets: [
      verdict(
        'non-streamed throughput',
        '≥ 0.6 × reference proxy',
        gatewayToProxy.median,
        '×',
        gatewayToProxy.median >= 0.6,
      ),
      verdict('non-streamed throughput', '≥ 5 × Portkey', gatewayToPortkey.median, '×', gatewayToPortkey.median >= 5),
      verdict(
        'CPU per request',
        '≤ 0.25 ms',
        medianOf(gateway.cpuPerRequestMs),
        'ms',
        medianOf(gateway.cpuPerRequestMs) <= 0.25,
      ),
      // Issue 38: billing cost about 0.4 × the proxy's CPU per request (90 µs, 2026-11-28); the target halves it.
      verdict(
        'billing: CPU per request (billing on − off)',
        '≤ 0.2 × reference proxy',
        billingCpuToProxy.median,
        '×',
        billingCpuToProxy.median <= 0.2,
      ),
      verdict(
        'time to first event, added p50',
        '< 0.3 ms',
        gateway.addedFirstEventP50Ms.median,
        'ms',
        gateway.addedFirstEventP50Ms.median < 0.3,
      ),
      verdict(
        'time to first event, added p99',
        '< 1 ms',
        gateway.addedFirstEventP99Ms.median,
        'ms',
        gateway.addedFirstEventP99Ms.median < 1,
      ),
      verdict('paced streams: CPU per stream', '≤ 1.3 × reference proxy', pacedCpuToProxy, '×', pacedCpuToProxy <= 1.3),
      verdict(
        'paced streams: peak RSS at 50 streams',
        '≤ 160 MB',
        medianOf(gateway.pacedPeakRssBytes) / 1e6,
        'MB',
        medianOf(gateway.pacedPeakRssBytes) <= peakRssLimitBytes,
      ),
    ],
  };
}

function summarizePath(runs: PathRound[], direct: PathRound[]): PathSummary {
  const spread = (read: (round: PathRound) => number) => spreadOf(runs.map(read));
  const optionalSpread = (read: (round: PathRound) => number | undefined) => {
    const values = runs.map(read);
    return values.every((value): value is number => value !== undefined) && values.length > 0
      ? spreadOf(values)
      : undefined;
  };
  const minus = (left: number, right: number) => left - right;
  return {
    requestsPerSecond: spread((round) => round.requestsPerSecond),
    cpuPerRequestMs: optionalSpread((round) => round.cpuPerRequestMs),
    burstRequestsPerSecond: spread((round) => round.burstRequestsPerSecond),
    pacedCpuPerStreamMs: optionalSpread((round) => round.pacedCpuPerStreamMs),
    pacedP99Ms: spread((round) => round.pacedP99Ms),
    pacedPeakRssBytes: optionalSpread((round) => round.pacedPeakRssBytes),
    firstEventP50Ms: spread((round) => round.firstEventP50Ms),
    firstEventP99Ms: spread((round) => round.firstEventP99Ms),
    addedFirstEventP50Ms: pairedSpread(
      runs.map((round) => round.firstEventP50Ms),
      direct.map((round) => round.firstEventP50Ms),
      minus,
    ),
    addedFirstEventP99Ms: pairedSpread(
      runs.map((round) => round.firstEventP99Ms),
      direct.map((round) => round.firstEventP99Ms),
      minus,
    ),
  };
}

function medianOf(spread: Spread | undefined): number {
  return spread?.median ?? Number.NaN;
}
