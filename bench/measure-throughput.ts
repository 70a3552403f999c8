// 2 and 4. Throughput at 50 connections (non-streamed ~500-byte chat body) and CPU time per request.
import type { BenchTargets } from './bench-targets.js';
import type { BenchmarkSettings } from './benchmark-settings.js';
import { measureLoadRounds, warmUp } from './measure-load-rounds.js';
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

export async function measureThroughput(targets: BenchTargets, settings: BenchmarkSettings, options: { warm: boolean }): Promise<ThroughputResult> {
  const body = createChatBody(500);
  const connections = settings.throughputConnections;
  const plan = { path: '/chat/completions', body, connections, durationSeconds: settings.throughputSeconds, repetitions: settings.repetitions, keepLatencies: true };
  if (options.warm) await warmUp(targets, plan, settings.warmupSeconds);
  const runs = await measureLoadRounds(targets, plan);
  return {
    connections,
    bodyBytes: Buffer.byteLength(body),
    targets: summarizeTargets(runs),
    gatewayOverProxy: gatewayOverProxy(runs, (run) => run.requestsPerSecond),
    cpuPerRequestGatewayOverProxy: gatewayOverProxy(runs, (run) => run.cpuMsPerRequest ?? Number.NaN),
  };
}
