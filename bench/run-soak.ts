// `npm run bench:soak [-- --minutes N] [--warmup-minutes W] [--concurrency C] [--rate R]`: issue 37's soak run.
// Starts the bundled gateway (as `npm start` runs it) and the loopback OpenAI simulator, drives mixed traffic for N
// minutes (default 30) at R requests a second (default 40) from C clients (default 32): chat streamed and not,
// embeddings, transcription uploads, clients leaving mid-stream, vendor errors, resets and slow answers. Samples the
// gateway's RSS, heap, open descriptors and event-loop delay every 10 s and reports their growth from the end of the
// warm-up (default 5 minutes, half of shorter runs) to the end. Writes bench/results/<date>-soak.json; the
// gateway's own log lines go to stdout, the harness's to stderr. Loopback only; it ends after N minutes plus the
// last answers' time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleBenchGateway } from './bundle-bench-gateway.js';
import { collectMachineInfo } from './collect-machine-info.js';
import { compileBenchProcesses, compiledBenchProcess } from './compile-bench-processes.js';
import { formatMegabytes } from './format-values.js';
import { readGatewayLaunch } from './read-gateway-launch.js';
import { waitUntilGatewaySettled } from './read-gateway-metrics.js';
import { eventLoopMonitorResolutionMs, takeSoakSample } from './soak-sampler.js';
import { soakTargets, summarizeSoak, type SoakSample, type SoakSummary } from './soak-summary.js';
import { createSoakTrafficTotals, listSoakModels, runSoakTraffic, soakCycle } from './soak-traffic.js';
import { startBenchProcess, type BenchProcess } from './start-bench-processes.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const upstreamKey = 'sk-sim-soak-upstream-key';
const sampleIntervalMs = 10_000;
/** The baseline and the end are medians over this long a window. */
const windowMs = 60_000;

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    'warmup-minutes': { type: 'string' },
    concurrency: { type: 'string', default: '32' },
    rate: { type: 'string', default: '40' },
  },
});
const minutes = Number(values.minutes);
const warmupMinutes =
  values['warmup-minutes'] === undefined ? Math.min(5, minutes / 2) : Number(values['warmup-minutes']);
const concurrency = Number(values.concurrency);
const requestsPerSecond = Number(values.rate);
if (!(minutes > 0) || !(warmupMinutes >= 0) || !(concurrency >= 1) || !(requestsPerSecond > 0))
  throw new Error('--minutes, --warmup-minutes, --concurrency and --rate must be positive numbers');
if ((minutes - warmupMinutes) * 60_000 < 2 * windowMs)
  throw new Error(`the run needs at least ${(2 * windowMs) / 60_000} minutes after its warm-up`);

const clockStart = performance.now();
const log = (message: string): void => {
  process.stderr.write(
    `[bench:soak ${((performance.now() - clockStart) / 1000).toFixed(0).padStart(5)} s] ${message}\n`,
  );
};
const startedAt = new Date();
log(
  `${minutes} minutes, warm-up ${warmupMinutes} minutes, ${concurrency} clients, ${requestsPerSecond} requests a second; bundling the gateway`,
);
compileBenchProcesses(['bench/processes/simulator-process.ts']);
const gatewayScript = await bundleBenchGateway();
const started: BenchProcess[] = [];
try {
  const simulator = await startBenchProcess({
    name: 'simulator',
    scriptFile: compiledBenchProcess('simulator-process.ts'),
    core: undefined,
    environment: { BENCH_UPSTREAM_KEY: upstreamKey },
  });
  started.push(simulator);
  const launch = readGatewayLaunch();
  const gateway = await startBenchProcess({
    name: 'gateway',
    scriptFile: gatewayScript,
    core: undefined,
    nodeFlags: launch.nodeFlags,
    environment: {
      ...launch.environment,
      BENCH_UPSTREAM_URL: simulator.url,
      BENCH_UPSTREAM_KEY: upstreamKey,
      BENCH_MODELS: listSoakModels().join(','),
      // Every client of the harness is one loopback address.
      GATEWAY_MAX_IN_FLIGHT_PER_ADDRESS: String(concurrency * 2),
    },
  });
  started.push(gateway);
  const result = await soak(gateway);
  const file = path.join(projectRoot, 'bench/results', `${startedAt.toISOString().slice(0, 10)}-soak.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stderr.write(renderSoakReport(result.summary, result.traffic.finished, result.traffic.unexpected));
  log(`wrote ${path.relative(projectRoot, file)}`);
  if (result.traffic.unexpected > 0) process.exitCode = 1;
} finally {
  await Promise.all(started.map((benchProcess) => benchProcess.stop()));
}

async function soak(gateway: BenchProcess) {
  const apiKey = gateway.details.apiKey as string;
  const totals = createSoakTrafficTotals();
  const trafficStart = Date.now();
  const deadline = trafficStart + minutes * 60_000;
  const traffic = runSoakTraffic({
    baseUrl: `${gateway.url}/v1`,
    apiKey,
    concurrency,
    requestsPerSecond,
    deadline,
    totals,
  });
  const samples: SoakSample[] = [];
  let trafficDone = false;
  const trafficEnded = traffic.finally(() => {
    trafficDone = true;
  });
  const harnessMonitor = monitorEventLoopDelay({ resolution: eventLoopMonitorResolutionMs });
  harnessMonitor.enable();
  // Starts the first delay interval at the traffic's start.
  await takeSoakSample({
    pid: gateway.pid,
    gatewayUrl: gateway.url,
    elapsedMs: 0,
    finishedRequests: 0,
    harnessMonitor,
  });
  let nextSampleAt = trafficStart + sampleIntervalMs;
  while (!trafficDone && nextSampleAt <= deadline) {
    await Promise.race([sleep(Math.max(0, nextSampleAt - Date.now())), trafficEnded]);
    if (trafficDone) break;
    const sample = await takeSoakSample({
      pid: gateway.pid,
      gatewayUrl: gateway.url,
      elapsedMs: nextSampleAt - trafficStart,
      finishedRequests: totals.finished,
      harnessMonitor,
    });
    samples.push(sample);
    log(
      `${(sample.elapsedMs / 60_000).toFixed(1)} min: RSS ${formatMegabytes(sample.rssBytes)}, heap ${formatMegabytes(sample.heapUsedBytes)}, ` +
        `${sample.openFileDescriptors} fds, loop p99 ${sample.eventLoopDelayP99Ms.toFixed(1)} ms (harness ${sample.harnessEventLoopDelayP99Ms.toFixed(1)} ms, load ${sample.loadAverage.toFixed(1)}), ` +
        `${totals.finished} requests, ${totals.unexpected} unexpected`,
    );
    nextSampleAt += sampleIntervalMs;
  }
  await trafficEnded;
  harnessMonitor.disable();
  await waitUntilGatewaySettled(gateway.url);
  const summary = summarizeSoak(samples, { warmupMs: warmupMinutes * 60_000, windowMs });
  return {
    command: `npm run bench:soak -- --minutes ${minutes}`,
    startedAt: startedAt.toISOString(),
    machine: collectMachineInfo(),
    settings: {
      minutes,
      warmupMinutes,
      concurrency,
      requestsPerSecond,
      sampleIntervalMs,
      windowMs,
      cycle: soakCycle,
      models: listSoakModels(),
    },
    targets: soakTargets,
    summary,
    traffic: totals,
    samples,
  };
}

/** The report printed at the end: growth after the warm-up against the targets, and the traffic's answers. */
function renderSoakReport(summary: SoakSummary, finished: number, unexpected: number): string {
  const verdict = (pass: boolean): string => (pass ? 'ok' : 'MISSED');
  const growthLine = (
    name: string,
    growth: SoakSummary['rss'],
    format: (value: number) => string,
    pass?: boolean,
  ): string =>
    `  ${name.padEnd(22)} ${format(growth.baseline).padStart(10)} -> ${format(growth.end).padStart(10)}  ${growth.growthPercent >= 0 ? '+' : ''}${growth.growthPercent.toFixed(1)} %${pass === undefined ? '' : `  (target < ${soakTargets.maxGrowthPercent} %: ${verdict(pass)})`}`;
  return [
    '',
    `Soak: ${minutes} minutes, ${concurrency} clients at ${requestsPerSecond} requests a second, ${finished} requests (${unexpected} unexpected answers); growth from minute ${warmupMinutes} to the end (medians of the first and last minute):`,
    growthLine('RSS', summary.rss, formatMegabytes, summary.passes.rss),
    growthLine('heap used', summary.heapUsed, formatMegabytes),
    growthLine(
      'open file descriptors',
      summary.openFileDescriptors,
      (count) => String(count),
      summary.passes.openFileDescriptors,
    ),
    `  event-loop delay p99   median ${summary.eventLoopDelayP99Ms.median.toFixed(1)} ms, worst 10 s interval ${summary.eventLoopDelayP99Ms.worst.toFixed(1)} ms  (target < ${soakTargets.maxEventLoopDelayP99Ms} ms: ${verdict(summary.passes.eventLoopDelay)})`,
    `  control: the harness's own loop p99 median ${summary.harnessEventLoopDelayP99Ms.median.toFixed(1)} ms, worst ${summary.harnessEventLoopDelayP99Ms.worst.toFixed(1)} ms; median load average ${summary.medianLoadAverage.toFixed(1)} on ${availableParallelism()} cores`,
    '',
  ].join('\n');
}
