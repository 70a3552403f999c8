// The speed targets of the gateway (2-core machine, one gateway process) and whether a run met them.
import type { BenchmarkResult, TargetVerdict } from './benchmark-result.js';
import { formatMegabytes, formatSpread } from './format-values.js';

/** Limits in decimal megabytes. */
const peakRssLimitBytes = 300e6;
const afterRssLimitBytes = 150e6;

export function evaluateTargets(result: Omit<BenchmarkResult, 'targets'>): TargetVerdict[] {
  const { latency, throughput, streams, memory, settings } = result;
  // role chunk, content chunks, finish chunk, usage chunk, [DONE]
  const eventsPerStream = settings.pacedChunkCount + 4;
  const gatewayStreams = streams.targets.gateway;
  const cpu = throughput.targets.gateway.cpuMsPerRequest;
  const streamMemory = memory.gateway;
  const allOpen = streamMemory.maxConcurrentOpen === streamMemory.streams && streamMemory.incompleteStreams === 0;
  return [
    {
      name: `throughput at ${throughput.connections} connections`,
      goal: '≥ 0.6 × reference proxy',
      measured: `${formatSpread(throughput.gatewayOverProxy, 2)} ×`,
      pass: throughput.gatewayOverProxy.median >= 0.6,
    },
    {
      name: 'added latency p50, concurrency 1',
      goal: '< 0.3 ms',
      measured: `${formatSpread(latency.added.gatewayP50Ms)} ms`,
      pass: latency.added.gatewayP50Ms.median < 0.3,
    },
    {
      name: 'added latency p99, concurrency 1',
      goal: '< 1 ms',
      measured: `${formatSpread(latency.added.gatewayP99Ms)} ms`,
      pass: latency.added.gatewayP99Ms.median < 1,
    },
    {
      name: 'added time to first streamed byte (p50)',
      goal: '< 1 ms',
      measured: `${formatSpread(streams.added.gatewayFirstEventP50Ms)} ms`,
      pass: streams.added.gatewayFirstEventP50Ms.median < 1,
    },
    {
      name: 'no stream chunk held back',
      goal: `every event relayed in its own read, none reaching the client more than ${settings.pacedIntervalMs / 2} ms after the simulator sent it`,
      measured:
        `${gatewayStreams.relayHeldBack} of ${gatewayStreams.stampedEvents} held more than ${settings.pacedIntervalMs / 2} ms (direct: ${streams.targets.direct.relayHeldBack}), ` +
        `added relay delay p99 ${formatSpread(streams.added.gatewayRelayDelayP99Ms)} ms, ${gatewayStreams.readsPerStream} reads for ${eventsPerStream} events per stream, ` +
        `${gatewayStreams.eventsReceived}/${gatewayStreams.eventsExpected} events, ${gatewayStreams.incompleteStreams} incomplete streams`,
      pass:
        gatewayStreams.relayHeldBack === 0 &&
        gatewayStreams.stampedEvents > 0 &&
        gatewayStreams.readsPerStream >= eventsPerStream &&
        gatewayStreams.incompleteStreams === 0 &&
        gatewayStreams.eventsReceived === gatewayStreams.eventsExpected,
    },
    {
      name: 'CPU time per request (50 connections)',
      goal: '< 0.35 ms',
      measured: `${formatSpread(cpu)} ms (proxy ${formatSpread(throughput.targets.proxy.cpuMsPerRequest)} ms)`,
      pass: cpu !== undefined && cpu.median < 0.35,
    },
    {
      name: `RSS with ${streamMemory.streams} concurrent streams`,
      goal: `< 300 MB${streamMemory.streams < 1000 ? ' (quick run: fewer streams than the 1,000 of the target)' : ''}`,
      measured: `${formatMegabytes(streamMemory.rssPeakBytes)} peak, ${streamMemory.maxConcurrentOpen} open at once, ${streamMemory.incompleteStreams} incomplete`,
      pass: allOpen && streamMemory.rssPeakBytes < peakRssLimitBytes,
    },
    {
      name: 'RSS after the streams end',
      goal: '< 150 MB',
      measured:
        streamMemory.rssAfterIdleBytes === undefined
          ? `${formatMegabytes(streamMemory.rssAfterGcBytes)} after GC (${formatMegabytes(streamMemory.rssAfterSettleBytes)} before)`
          : `${formatMegabytes(streamMemory.rssAfterIdleBytes)} once idle (${formatMegabytes(streamMemory.rssAfterSettleBytes)} at once, ${formatMegabytes(streamMemory.rssAfterGcBytes)} after a forced GC)`,
      pass: (streamMemory.rssAfterIdleBytes ?? streamMemory.rssAfterGcBytes) < afterRssLimitBytes,
    },
  ];
}
