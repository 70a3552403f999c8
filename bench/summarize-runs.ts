// Turns repeated runs into medians with spreads, and into per-round differences and ratios between targets.
import type { TargetName } from './bench-targets.js';
import type { RunsByTarget, TargetRun } from './measure-load-rounds.js';
import { pairedSpread, spreadOf, type Spread } from './statistics.js';

/** The summary of one target's runs. */
export interface TargetSummary {
  requestsPerSecond: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  /** absent for `direct`, which has no process in the middle */
  cpuMsPerRequest?: Spread;
  cpuUtilization?: Spread;
  completed: number;
  failed: number;
}

/** Summaries of all three targets. */
export type SummaryByTarget = Record<TargetName, TargetSummary>;

/** Median and range per target. */
export function summarizeTargets(runs: RunsByTarget): SummaryByTarget {
  return {
    direct: summarizeTarget(runs.direct),
    proxy: summarizeTarget(runs.proxy),
    gateway: summarizeTarget(runs.gateway),
  };
}

/** `target` minus `direct`, per round. */
export function addedOverDirect(
  runs: RunsByTarget,
  target: 'proxy' | 'gateway',
  metric: (run: TargetRun) => number,
): Spread {
  return pairedSpread(runs[target].map(metric), runs.direct.map(metric), (left, right) => left - right);
}

/** gateway divided by proxy, per round. */
export function gatewayOverProxy(runs: RunsByTarget, metric: (run: TargetRun) => number): Spread {
  return pairedSpread(runs.gateway.map(metric), runs.proxy.map(metric), (left, right) => left / right);
}

function summarizeTarget(runs: TargetRun[]): TargetSummary {
  const cpu = runs.map((run) => run.cpuMsPerRequest).filter((value): value is number => value !== undefined);
  const utilization = runs.map((run) => run.cpuUtilization).filter((value): value is number => value !== undefined);
  return {
    requestsPerSecond: spreadOf(runs.map((run) => run.requestsPerSecond)),
    p50Ms: spreadOf(runs.map((run) => run.p50Ms)),
    p99Ms: spreadOf(runs.map((run) => run.p99Ms)),
    ...(cpu.length > 0 ? { cpuMsPerRequest: spreadOf(cpu), cpuUtilization: spreadOf(utilization) } : {}),
    completed: runs.reduce((total, run) => total + run.completed, 0),
    failed: runs.reduce((total, run) => total + run.failed, 0),
  };
}
