// `npm run bench [-- --quick] [-- --profile]`: measures the gateway against a reference proxy and the direct path,
// writes bench/results/<date>.json and regenerates the results in docs/BENCHMARKS.md. See docs/BENCHMARKS.md.
import { performance } from 'node:perf_hooks';
import type { BenchmarkResult } from './benchmark-result.js';
import { fullSettings, quickSettings } from './benchmark-settings.js';
import { collectMachineInfo } from './collect-machine-info.js';
import { evaluateTargets } from './evaluate-targets.js';
import { measureLargeBodies } from './measure-large-bodies.js';
import { measureLatency } from './measure-latency.js';
import { measureIdleRss, measureStreamMemory } from './measure-memory.js';
import { measureStreams } from './measure-streams.js';
import { measureThroughput } from './measure-throughput.js';
import { readGatewayRequestCount } from './read-gateway-metrics.js';
import { createChatBody } from './request-bodies.js';
import { runLoad } from './run-load.js';
import { runProfile } from './run-profile.js';
import { startBenchTargets, type RunningBench } from './start-bench-targets.js';
import { planProcessLayout } from './start-bench-processes.js';
import { QuietGuard } from './quiet-guard.js';
import { waitForQuietMachine } from './wait-for-quiet-machine.js';
import { updateBenchmarksDocument, writeResultsJson } from './write-report.js';

const argumentsGiven = new Set(process.argv.slice(2));
const settings = argumentsGiven.has('--quick') ? quickSettings : fullSettings;
const layout = planProcessLayout();
const startedAt = new Date();
const clockStart = performance.now();

const log = (message: string): void => {
  process.stderr.write(`[bench ${((performance.now() - clockStart) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
};

if (argumentsGiven.has('--profile')) {
  await runProfile({ layout, settings, startedAt, log });
} else {
  await runAll();
}

async function runAll(): Promise<void> {
  log(`${settings.mode} run; ${layout.description}`);
  await waitForQuietMachine(settings.mode === 'full' ? 120 : 0, log);
  const bench = await startBenchTargets(layout, settings);
  let result: BenchmarkResult;
  try {
    result = await measureEverything(bench);
  } finally {
    await bench.stop();
  }
  const resultsFile = writeResultsJson(result);
  log(`wrote ${resultsFile}`);
  if (settings.mode === 'full') {
    const section = updateBenchmarksDocument(result, resultsFile);
    log('regenerated docs/BENCHMARKS.md');
    process.stdout.write(`${section}\n`);
  } else {
    // Quick numbers are too rough for the document; print them instead.
    const { renderResultsMarkdown } = await import('./render-results-markdown.js');
    process.stdout.write(`${renderResultsMarkdown(result, resultsFile)}\n`);
  }
}

async function measureEverything(bench: RunningBench): Promise<BenchmarkResult> {
  const { targets } = bench;
  const firstRequests = { url: '', headers: {}, body: createChatBody(500) };
  for (const target of [targets.proxy, targets.gateway]) {
    await runLoad(
      {
        ...firstRequests,
        url: `${target.baseUrl}/chat/completions`,
        headers: { authorization: target.authorization, 'content-type': 'application/json' },
      },
      { connections: 1, durationSeconds: 1, keepLatencies: false },
    );
  }
  const idleRssBytes = { gateway: await measureIdleRss(bench.gateway), proxy: await measureIdleRss(bench.proxy) };
  const guard = new QuietGuard({
    processes: [bench.simulator, bench.gateway, bench.proxy],
    // A full run measures a disturbed run again, up to three times, once the machine is quiet; quick runs never wait.
    attempts: settings.mode === 'full' ? 3 : 1,
    maximumWaitSeconds: 300,
    log,
  });
  log('latency at concurrency 1');
  const latency = await measureLatency(targets, settings, guard);
  log(`throughput at ${settings.throughputConnections} connections`);
  const throughput = await measureThroughput(targets, settings, guard);
  log('streams');
  const streams = await measureStreams(targets, settings, guard);
  // Memory before the large bodies, whose megabyte strings would leave old space grown for both processes.
  log(`memory with ${settings.memoryStreams} concurrent streams: gateway, then reference proxy`);
  const gatewayMemory = await measureStreamMemory(targets.gateway, settings, guard);
  const proxyMemory = await measureStreamMemory(targets.proxy, settings, guard);
  log('large bodies');
  const largeBodies = await measureLargeBodies(targets, settings, guard);
  const gatewayRequestsCounted = await readGatewayRequestCount(bench.gateway.url);
  const measured = {
    startedAt: startedAt.toISOString(),
    durationSeconds: (performance.now() - clockStart) / 1000,
    command: `npm run bench${settings.mode === 'quick' ? ' -- --quick' : ''}`,
    machine: collectMachineInfo(),
    layout,
    settings,
    idleRssBytes,
    latency,
    throughput,
    streams,
    memory: { gateway: gatewayMemory, proxy: proxyMemory },
    largeBodies,
    gatewayRequestsCounted,
    foreignCpu: guard.summary(),
  };
  return { ...measured, targets: evaluateTargets(measured) };
}
