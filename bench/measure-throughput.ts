// 2 and 4. Throughput at 50 connections (non-streamed ~500-byte chat body) and CPU time per request.
import type { BenchTargets } from './bench-targets.js';
import type { BenchmarkSettings } from './benchmark-settings.js';
import type { QuietGuard } from './quiet-guard.js';
import { measureLoadRounds } from './measure-load-rounds.js';
import { createChatBody } from './request-bodies.js';
import type { Spread } from './statistics.js';
import { gatewayOverProxy, summarizeTargets, type SummaryByTarget } from './summarize-runs.js';

/** Requests per second under load and what each request cost the process in the middle. */
export interface ThroughputResult {
  connections: number;
  bodyBytes: number;
  targets: SummaryByTarget;
  /** gateway requests per second divided by the proxy's, per round */
  gatewayOverProxy: Spread;
  /** gateway CPU per request divided by the proxy's, per round */
  cpuPerRequestGatewayOverProxy: Spread;
}

export async function measureThroughput(
  targets: BenchTargets,
  settings: BenchmarkSettings,
  guard: QuietGuard,
): Promise<ThroughputResult> {
  const body = createChatBody(500);
  const connections = settings.throughputConnections;
  const plan = {
    phase: `throughput at ${connections} connections`,
    path: '/chat/completions',
    body,
    connections,
    durationSeconds: settings.throughputSeconds,
    repetitions: settings.repetitions,
    keepLatencies: true,
  };
  const runs = await measureLoadRounds(targets, plan, guard);
  return {
    connections,
    bodyBytes: Buffer.byteLength(body),
    targets: summarizeTargets(runs),
    gatewayOverProxy: gatewayOverProxy(runs, (run) => run.requestsPerSecond),
    cpuPerRequestGatewayOverProxy: gatewayOverProxy(runs, (run) => run.cpuMsPerRequest ?? Number.NaN),
  };
}
