// Repeated autocannon runs against each target, with the CPU time the process in the middle spent on them.
import { targetsInRound, jsonHeaders, type BenchTarget, type BenchTargets, type TargetName } from './bench-targets.js';
import type { QuietGuard } from './quiet-guard.js';
import { runLoad } from './run-load.js';
import { percentile } from './statistics.js';

/** One run against one target. */
export interface TargetRun {
  completed: number;
  failed: number;
  requestsPerSecond: number;
  /** response time percentiles, in milliseconds (NaN when latencies were not kept) */
  p50Ms: number;
  p99Ms: number;
  /** CPU time of the gateway or proxy per completed request, in milliseconds; undefined for `direct` */
  cpuMsPerRequest: number | undefined;
  /** share of one core the gateway or proxy used during the run (1 = a full core) */
  cpuUtilization: number | undefined;
}

/** Runs per target, index = repetition. */
export type RunsByTarget = Record<TargetName, TargetRun[]>;

/** What to send and how. */
export interface LoadPlan {
  /** the phase these runs belong to, e.g. `latency at concurrency 1` */
  phase: string;
  /** path below the target's base URL, e.g. `/chat/completions` */
  path: string;
  body: string;
  connections: number;
  durationSeconds: number;
  repetitions: number;
  keepLatencies: boolean;
}

/** Sends load to each target for `seconds` without recording anything (JIT, pools and caches warm up). */
export async function warmUp(
  targets: BenchTargets,
  plan: Pick<LoadPlan, 'path' | 'body' | 'connections'>,
  seconds: number,
): Promise<void> {
  for (const target of targetsInRound(targets, 0)) {
    const run = await runLoad(loadRequest(target, plan), {
      connections: plan.connections,
      durationSeconds: seconds,
      keepLatencies: false,
    });
    if (run.completed === 0) throw new Error(`warm-up of ${target.name} completed no request (${run.failed} failed)`);
  }
}

/** Measures every target `plan.repetitions` times, rotating the order each round. */
export async function measureLoadRounds(
  targets: BenchTargets,
  plan: LoadPlan,
  guard: QuietGuard,
): Promise<RunsByTarget> {
  const runs: RunsByTarget = { direct: [], proxy: [], gateway: [] };
  for (let round = 0; round < plan.repetitions; round++) {
    for (const target of targetsInRound(targets, round))
      runs[target.name].push(await guard.run(plan.phase, () => measureOneRun(target, plan)));
  }
  return runs;
}

async function measureOneRun(target: BenchTarget, plan: LoadPlan): Promise<TargetRun> {
  // The gateway's CPU includes writing this run's usage rows, and not the rows of what ran before.
  await target.waitUntilSettled?.();
  const before = await target.process?.stats();
  const run = await runLoad(loadRequest(target, plan), {
    connections: plan.connections,
    durationSeconds: plan.durationSeconds,
    keepLatencies: plan.keepLatencies,
  });
  await target.waitUntilSettled?.();
  const after = await target.process?.stats();
  if (run.failed > 0) process.stderr.write(`warning: ${target.name} ${plan.path}: ${run.failed} failed requests\n`);
  const cpuMs = before && after ? (after.cpuMicros - before.cpuMicros) / 1000 : undefined;
  return {
    completed: run.completed,
    failed: run.failed,
    requestsPerSecond: run.requestsPerSecond,
    p50Ms: percentile(run.latenciesMs, 50),
    p99Ms: percentile(run.latenciesMs, 99),
    cpuMsPerRequest: cpuMs === undefined ? undefined : cpuMs / Math.max(1, run.completed + run.failed),
    cpuUtilization: cpuMs === undefined ? undefined : cpuMs / (run.durationSeconds * 1000),
  };
}

function loadRequest(target: BenchTarget, plan: Pick<LoadPlan, 'path' | 'body'>) {
  return { url: target.baseUrl + plan.path, headers: jsonHeaders(target), body: plan.body };
}
