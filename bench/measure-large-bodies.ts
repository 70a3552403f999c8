// 6. Large request bodies: a 100 KB prompt and a 1 MB base64 image, latency at concurrency 1 and throughput.
import type { BenchTargets } from './bench-targets.js';
import type { BenchmarkSettings } from './benchmark-settings.js';
import type { QuietGuard } from './quiet-guard.js';
import { measureLoadRounds, warmUp } from './measure-load-rounds.js';
import { createImageBody, createLargePromptBody } from './request-bodies.js';
import type { Spread } from './statistics.js';
import { addedOverDirect, gatewayOverProxy, summarizeTargets, type SummaryByTarget } from './summarize-runs.js';

/** Latency and throughput for one large body. */
export interface LargeBodyResult {
  name: string;
  bodyBytes: number;
  latency: SummaryByTarget;
  addedP50Ms: { gateway: Spread; proxy: Spread };
  addedP99Ms: { gateway: Spread; proxy: Spread };
  throughputConnections: number;
  throughput: SummaryByTarget;
  gatewayOverProxy: Spread;
}

export async function measureLargeBodies(
  targets: BenchTargets,
  settings: BenchmarkSettings,
  guard: QuietGuard,
): Promise<LargeBodyResult[]> {
  const bodies = [
    { name: '100 KB prompt', body: createLargePromptBody(100 * 1024) },
    { name: '1 MB base64 image', body: createImageBody(1024 * 1024) },
  ];
  const results: LargeBodyResult[] = [];
  for (const { name, body } of bodies) {
    const base = {
      phase: 'large bodies',
      path: '/chat/completions',
      body,
      repetitions: settings.repetitions,
      keepLatencies: true,
    };
    await warmUp(targets, { ...base, connections: settings.largeBodyConnections }, settings.largeBodyWarmupSeconds);
    const latencyRuns = await measureLoadRounds(
      targets,
      { ...base, connections: 1, durationSeconds: settings.largeBodyLatencySeconds },
      guard,
    );
    const throughputRuns = await measureLoadRounds(
      targets,
      { ...base, connections: settings.largeBodyConnections, durationSeconds: settings.largeBodyThroughputSeconds },
      guard,
    );
    results.push({
      name,
      bodyBytes: Buffer.byteLength(body),
      latency: summarizeTargets(latencyRuns),
      addedP50Ms: {
        gateway: addedOverDirect(latencyRuns, 'gateway', (run) => run.p50Ms),
        proxy: addedOverDirect(latencyRuns, 'proxy', (run) => run.p50Ms),
      },
      addedP99Ms: {
        gateway: addedOverDirect(latencyRuns, 'gateway', (run) => run.p99Ms),
        proxy: addedOverDirect(latencyRuns, 'proxy', (run) => run.p99Ms),
      },
      throughputConnections: settings.largeBodyConnections,
      throughput: summarizeTargets(throughputRuns),
      gatewayOverProxy: gatewayOverProxy(throughputRuns, (run) => run.requestsPerSecond),
    });
  }
  return results;
}
