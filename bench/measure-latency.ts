// 1. Added latency at concurrency 1: one connection, one request at a time, ~500-byte chat body.
import type { BenchTargets } from './bench-targets.js';
import type { BenchmarkSettings } from './benchmark-settings.js';
import type { QuietGuard } from './quiet-guard.js';
import { measureLoadRounds, warmUp } from './measure-load-rounds.js';
import { createChatBody } from './request-bodies.js';
import type { Spread } from './statistics.js';
import { addedOverDirect, summarizeTargets, type SummaryByTarget } from './summarize-runs.js';

/** Latency at concurrency 1 and what the proxy and the gateway add to it. */
export interface LatencyResult {
  bodyBytes: number;
  targets: SummaryByTarget;
  /** milliseconds added over the direct path, per round */
  added: { gatewayP50Ms: Spread; gatewayP99Ms: Spread; proxyP50Ms: Spread; proxyP99Ms: Spread };
}

export async function measureLatency(
  targets: BenchTargets,
  settings: BenchmarkSettings,
  guard: QuietGuard,
): Promise<LatencyResult> {
  const body = createChatBody(500);
  const plan = {
    phase: 'latency at concurrency 1',
    path: '/chat/completions',
    body,
    connections: 1,
    durationSeconds: settings.latencySeconds,
    repetitions: settings.repetitions,
    keepLatencies: true,
  };
  await warmUp(targets, { ...plan, connections: settings.throughputConnections }, settings.warmupSeconds);
  const runs = await measureLoadRounds(targets, plan, guard);
  return {
    bodyBytes: Buffer.byteLength(body),
    targets: summarizeTargets(runs),
    added: {
      gatewayP50Ms: addedOverDirect(runs, 'gateway', (run) => run.p50Ms),
      gatewayP99Ms: addedOverDirect(runs, 'gateway', (run) => run.p99Ms),
      proxyP50Ms: addedOverDirect(runs, 'proxy', (run) => run.p50Ms),
      proxyP99Ms: addedOverDirect(runs, 'proxy', (run) => run.p99Ms),
    },
  };
}
