// Renders one benchmark run as the generated part of docs/BENCHMARKS.md.
import type { BenchmarkResult } from './benchmark-result.js';
import { formatMegabytes, formatRate, formatSpread } from './format-values.js';
import type { LargeBodyResult } from './measure-large-bodies.js';
import type { Spread } from './statistics.js';
import type { SummaryByTarget } from './summarize-runs.js';
import { quietBelowCores } from './wait-for-quiet-machine.js';

export function renderResultsMarkdown(result: BenchmarkResult, resultsFile: string): string {
  const { machine, settings } = result;
  const passed = result.targets.filter((target) => target.pass).length;
  const lines = [
    `## Latest results: ${result.startedAt.slice(0, 10)} (${settings.mode} run)`,
    '',
    `- Machine: ${machine.cores} cores, ${machine.cpuModel}, ${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB memory, Linux ${machine.kernel}`,
    `- Software: Node ${machine.nodeVersion}; ${Object.entries(machine.packages)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}`,
    `- Layout: ${result.layout.description}`,
    `- Command: \`${result.command}\`, ${Math.round(result.durationSeconds)} s; ${settings.repetitions} repetitions per measurement (median, min–max in brackets); raw numbers in \`${resultsFile}\``,
    `- Other load on the machine, most disturbed kept run per phase, in cores (steal in brackets): ${result.foreignCpu.map((entry) => `${entry.phase} ${entry.foreignCores.toFixed(2)} (${entry.stealCores.toFixed(2)})`).join('; ')}`,
    ...disturbedWarning(result),
    `- Gateway: \`startGateway\` with SQLite, metrics on, log level warn, GATEWAY_UPSTREAM_CONNECTIONS=${settings.gatewayUpstreamConnections}; it counted ${result.gatewayRequestsCounted} finished requests in /metrics`,
    '',
    `### Targets: ${passed} of ${result.targets.length} met`,
    '',
    '| target | goal | measured | verdict |',
    '|---|---|---|---|',
    ...result.targets.map(
      (target) => `| ${target.name} | ${target.goal} | ${target.measured} | ${target.pass ? 'PASS' : 'FAIL'} |`,
    ),
    '',
    '### All numbers',
    '',
    'Times in milliseconds. "Added" is the path minus the direct path in the same round.',
    '',
    '| measurement | direct | reference proxy | gateway | gateway ÷ proxy |',
    '|---|---|---|---|---|',
    ...loadRows(`latency, concurrency 1, ${result.latency.bodyBytes}-byte chat body`, result.latency.targets),
    `| added p50 | – | ${formatSpread(result.latency.added.proxyP50Ms)} | ${formatSpread(result.latency.added.gatewayP50Ms)} | |`,
    `| added p99 | – | ${formatSpread(result.latency.added.proxyP99Ms)} | ${formatSpread(result.latency.added.gatewayP99Ms)} | |`,
    `| throughput, ${result.throughput.connections} connections (req/s) | ${formatRate(result.throughput.targets.direct.requestsPerSecond)} | ${formatRate(result.throughput.targets.proxy.requestsPerSecond)} | ${formatRate(result.throughput.targets.gateway.requestsPerSecond)} | ${formatSpread(result.throughput.gatewayOverProxy, 2)} |`,
    `| latency p50 / p99 at ${result.throughput.connections} connections | ${pair(result.throughput.targets, 'direct')} | ${pair(result.throughput.targets, 'proxy')} | ${pair(result.throughput.targets, 'gateway')} | |`,
    `| CPU per request at ${result.throughput.connections} connections | – | ${formatSpread(result.throughput.targets.proxy.cpuMsPerRequest)} | ${formatSpread(result.throughput.targets.gateway.cpuMsPerRequest)} | ${formatSpread(result.throughput.cpuPerRequestGatewayOverProxy, 2)} |`,
    `| CPU use at ${result.throughput.connections} connections (cores) | – | ${formatSpread(result.throughput.targets.proxy.cpuUtilization, 2)} | ${formatSpread(result.throughput.targets.gateway.cpuUtilization, 2)} | |`,
    `| CPU per request at concurrency 1 | – | ${formatSpread(result.latency.targets.proxy.cpuMsPerRequest)} | ${formatSpread(result.latency.targets.gateway.cpuMsPerRequest)} | |`,
    ...streamRows(result),
    ...memoryRows(result),
    ...result.largeBodies.flatMap(largeBodyRows),
    '',
  ];
  return lines.join('\n');
}

function disturbedWarning(result: BenchmarkResult): string[] {
  const disturbed = result.foreignCpu
    .filter((entry) => entry.foreignCores > quietBelowCores)
    .map((entry) => entry.phase);
  if (disturbed.length === 0) return [];
  return [
    `- **Warning:** other processes disturbed ${disturbed.join(', ')} even after retries; treat those numbers with care.`,
  ];
}

function loadRows(title: string, targets: SummaryByTarget): string[] {
  return [
    `| ${title}: p50 | ${formatSpread(targets.direct.p50Ms)} | ${formatSpread(targets.proxy.p50Ms)} | ${formatSpread(targets.gateway.p50Ms)} | |`,
    `| p99 | ${formatSpread(targets.direct.p99Ms)} | ${formatSpread(targets.proxy.p99Ms)} | ${formatSpread(targets.gateway.p99Ms)} | |`,
  ];
}

function pair(targets: SummaryByTarget, name: keyof SummaryByTarget): string {
  return `${formatSpread(targets[name].p50Ms, 2)} / ${formatSpread(targets[name].p99Ms, 2)}`;
}

function streamRows(result: BenchmarkResult): string[] {
  const { streams } = result;
  const row = (title: string, pick: (name: 'direct' | 'proxy' | 'gateway') => string) =>
    `| ${title} | ${pick('direct')} | ${pick('proxy')} | ${pick('gateway')} | |`;
  const t = streams.targets;
  return [
    row(`stream, time to first event p50 (${streams.firstByteStreamsPerRun} sequential streams)`, (name) =>
      formatSpread(t[name].firstEventP50Ms),
    ),
    row('time to first event p99', (name) => formatSpread(t[name].firstEventP99Ms)),
    `| added time to first event p50 | – | ${formatSpread(streams.added.proxyFirstEventP50Ms)} | ${formatSpread(streams.added.gatewayFirstEventP50Ms)} | |`,
    row(
      `${streams.pacedModel} × ${streams.pacedStreamsPerRun} (${streams.pacedConcurrency} at once): gap p50`,
      (name) => formatSpread(t[name].gapP50Ms, 2),
    ),
    row('gap p99', (name) => formatSpread(t[name].gapP99Ms, 2)),
    row('gap max', (name) => formatSpread(t[name].gapMaxMs, 2)),
    `| added gap p99 | – | ${formatSpread(streams.added.proxyGapP99Ms)} | ${formatSpread(streams.added.gatewayGapP99Ms)} | |`,
    row('events received / sent', (name) => `${t[name].eventsReceived} / ${t[name].eventsExpected}`),
    row('chunks merged / late', (name) => `${t[name].heldBack} / ${t[name].delayed}`),
    row(
      'relay delay, simulator send → client, p50 / p99 / max',
      (name) =>
        `${formatSpread(t[name].relayDelayP50Ms, 2)} / ${formatSpread(t[name].relayDelayP99Ms, 2)} / ${formatSpread(t[name].relayDelayMaxMs, 2)}`,
    ),
    `| added relay delay p99 | – | ${formatSpread(streams.added.proxyRelayDelayP99Ms)} | ${formatSpread(streams.added.gatewayRelayDelayP99Ms)} | |`,
    row(
      `chunks held more than ${result.settings.pacedIntervalMs / 2} ms / stamped`,
      (name) => `${t[name].relayHeldBack} / ${t[name].stampedEvents}`,
    ),
    row('body reads per stream (median)', (name) => String(t[name].readsPerStream)),
  ];
}

function memoryRows(result: BenchmarkResult): string[] {
  const { gateway, proxy } = result.memory;
  const mb = formatMegabytes;
  return [
    `| RSS idle | – | ${mb(result.idleRssBytes.proxy)} | ${mb(result.idleRssBytes.gateway)} | |`,
    `| RSS peak with ${gateway.streams} × ${gateway.model} open | – | ${mb(proxy.rssPeakBytes)} | ${mb(gateway.rssPeakBytes)} | |`,
    `| streams open at once / incomplete | – | ${proxy.maxConcurrentOpen} / ${proxy.incompleteStreams} | ${gateway.maxConcurrentOpen} / ${gateway.incompleteStreams} | |`,
    `| V8 heap peak with streams open | – | ${mb(proxy.heapUsedPeakBytes)} | ${mb(gateway.heapUsedPeakBytes)} | |`,
    `| RSS after, ${result.settings.memorySettleMs / 1000} s settle / then GC | – | ${mb(proxy.rssAfterSettleBytes)} / ${mb(proxy.rssAfterGcBytes)} | ${mb(gateway.rssAfterSettleBytes)} / ${mb(gateway.rssAfterGcBytes)} | |`,
    ...(gateway.rssAfterIdleBytes === undefined || proxy.rssAfterIdleBytes === undefined
      ? []
      : [
          `| RSS after ${result.settings.memoryIdleMs / 1000} s more idle | – | ${mb(proxy.rssAfterIdleBytes)} | ${mb(gateway.rssAfterIdleBytes)} | |`,
          `| V8 heap committed after GC / after the idle time | – | ${mb(proxy.heapTotalAfterGcBytes)} / ${mb(proxy.heapTotalAfterIdleBytes ?? 0)} | ${mb(gateway.heapTotalAfterGcBytes)} / ${mb(gateway.heapTotalAfterIdleBytes ?? 0)} | |`,
        ]),
  ];
}

function largeBodyRows(body: LargeBodyResult): string[] {
  const added = (spread: Spread) => formatSpread(spread);
  return [
    ...loadRows(`${body.name} (${(body.bodyBytes / 1024).toFixed(0)} KiB), concurrency 1`, body.latency),
    `| added p50 / p99 | – | ${added(body.addedP50Ms.proxy)} / ${added(body.addedP99Ms.proxy)} | ${added(body.addedP50Ms.gateway)} / ${added(body.addedP99Ms.gateway)} | |`,
    `| ${body.name}, ${body.throughputConnections} connections (req/s) | ${formatRate(body.throughput.direct.requestsPerSecond)} | ${formatRate(body.throughput.proxy.requestsPerSecond)} | ${formatRate(body.throughput.gateway.requestsPerSecond)} | ${formatSpread(body.gatewayOverProxy, 2)} |`,
    `| CPU per request | – | ${formatSpread(body.throughput.proxy.cpuMsPerRequest)} | ${formatSpread(body.throughput.gateway.cpuMsPerRequest)} | |`,
  ];
}
