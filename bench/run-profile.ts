// `npm run bench -- --profile`: the throughput test against the gateway only, with the gateway under --cpu-prof;
// writes bench/results/gateway-<date>.cpuprofile (gitignored) and prints where the time went.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchmarkSettings } from './benchmark-settings.js';
import { jsonHeaders } from './bench-targets.js';
import { createChatBody } from './request-bodies.js';
import { runLoad } from './run-load.js';
import { startBenchTargets } from './start-bench-targets.js';
import type { ProcessLayout } from './start-bench-processes.js';
import { formatProfileSummary, summarizeCpuProfile } from './summarize-cpu-profile.js';

const resultsDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'results');

export async function runProfile(options: {
  layout: ProcessLayout;
  settings: BenchmarkSettings;
  startedAt: Date;
  log: (message: string) => void;
}): Promise<void> {
  const { settings, log } = options;
  mkdirSync(resultsDirectory, { recursive: true });
  const profileName = `gateway-${options.startedAt.toISOString().slice(0, 19).replaceAll(':', '-')}.cpuprofile`;
  const flags = [
    '--cpu-prof',
    '--cpu-prof-dir',
    resultsDirectory,
    '--cpu-prof-name',
    profileName,
    '--cpu-prof-interval',
    '250',
  ];
  // File by file, not bundled: the summary names each sample's package from its file.
  const bench = await startBenchTargets(options.layout, settings, { gatewayNodeFlags: flags, gatewayFileByFile: true });
  const gateway = bench.targets.gateway;
  const request = {
    url: `${gateway.baseUrl}/chat/completions`,
    headers: jsonHeaders(gateway),
    body: createChatBody(500),
  };
  const load = { connections: settings.throughputConnections, keepLatencies: false };
  let window: { from: number; to: number };
  try {
    log(
      `profiling the gateway: ${settings.warmupSeconds} s warm-up, then ${settings.throughputSeconds} s at ${load.connections} connections`,
    );
    await runLoad(request, { ...load, durationSeconds: settings.warmupSeconds });
    const from = monotonicMicros();
    const run = await runLoad(request, { ...load, durationSeconds: settings.throughputSeconds });
    window = { from, to: monotonicMicros() };
    log(`${run.requestsPerSecond.toFixed(0)} req/s under the profiler (${run.failed} failed)`);
  } finally {
    await bench.stop();
  }
  const file = path.join(resultsDirectory, profileName);
  log(`wrote ${path.relative(process.cwd(), file)}`);
  process.stdout.write(`${formatProfileSummary(summarizeCpuProfile(file, window))}\n`);
}

/** process.hrtime and V8's profiler both count CLOCK_MONOTONIC, so the window lines up with the profile's samples. */
function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
