// 3. Streams: added time to first event, added p99 gap between paced chunks, and whether any chunk was held back.
import { Agent } from 'undici';
import { targetsInRound, type BenchTarget, type BenchTargets, type TargetName } from './bench-targets.js';
import type { BenchmarkSettings } from './benchmark-settings.js';
import type { QuietGuard } from './quiet-guard.js';
import { readEventStream, runWithConcurrency, type StreamTiming } from './read-event-stream.js';
import { createStreamBody, normalModel, pacedModel } from './request-bodies.js';
import { pairedSpread, percentile, spreadOf, type Spread } from './statistics.js';

/** One target's paced-stream run. */
interface PacedRun {
  gapP50Ms: number;
  gapP99Ms: number;
  gapMaxMs: number;
  /** content events that arrived less than half an interval after the one before: merged or held back */
  heldBack: number;
  /** content events that arrived more than half an interval late */
  delayed: number;
  eventsExpected: number;
  eventsReceived: number;
  /** streams that did not end with [DONE] after exactly the expected events, or failed */
  incompleteStreams: number;
  /** body reads per stream, median: equal to events when none were merged */
  readsPerStream: number;
  /** content events stamped by the simulator with their send time, and how long each took to reach the client */
  relayDelayP50Ms: number;
  relayDelayP99Ms: number;
  relayDelayMaxMs: number;
  /** stamped events that reached the client more than half an interval after the simulator sent them */
  relayHeldBack: number;
  stampedEvents: number;
}

/** One target's sequential first-byte run. */
interface FirstByteRun {
  firstEventP50Ms: number;
  firstEventP99Ms: number;
  incompleteStreams: number;
}

/** Summary per target. */
export interface StreamTargetSummary {
  firstEventP50Ms: Spread;
  firstEventP99Ms: Spread;
  gapP50Ms: Spread;
  gapP99Ms: Spread;
  gapMaxMs: Spread;
  heldBack: number;
  delayed: number;
  eventsExpected: number;
  eventsReceived: number;
  incompleteStreams: number;
  readsPerStream: number;
  relayDelayP50Ms: Spread;
  relayDelayP99Ms: Spread;
  relayDelayMaxMs: Spread;
  relayHeldBack: number;
  stampedEvents: number;
}

/** The streaming measurements and what the proxy and gateway add. */
export interface StreamsResult {
  firstByteStreamsPerRun: number;
  pacedModel: string;
  pacedStreamsPerRun: number;
  pacedConcurrency: number;
  targets: Record<TargetName, StreamTargetSummary>;
  added: {
    gatewayFirstEventP50Ms: Spread;
    gatewayFirstEventP99Ms: Spread;
    proxyFirstEventP50Ms: Spread;
    gatewayGapP99Ms: Spread;
    proxyGapP99Ms: Spread;
    gatewayRelayDelayP99Ms: Spread;
    proxyRelayDelayP99Ms: Spread;
  };
}

export async function measureStreams(
  targets: BenchTargets,
  settings: BenchmarkSettings,
  guard: QuietGuard,
): Promise<StreamsResult> {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
  const firstByte: Record<TargetName, FirstByteRun[]> = { direct: [], proxy: [], gateway: [] };
  const paced: Record<TargetName, PacedRun[]> = { direct: [], proxy: [], gateway: [] };
  const model = pacedModel(settings.pacedChunkCount, settings.pacedIntervalMs);
  try {
    for (const target of targetsInRound(targets, 0)) await runFirstByte(dispatcher, target, 20);
    for (let round = 0; round < settings.repetitions; round++) {
      for (const target of targetsInRound(targets, round)) {
        firstByte[target.name].push(
          await guard.run('streams', () => runFirstByte(dispatcher, target, settings.firstByteStreams)),
        );
        paced[target.name].push(await guard.run('streams', () => runPaced(dispatcher, target, settings, model)));
      }
    }
  } finally {
    await dispatcher.close();
  }
  const firstP50 = (name: TargetName) => firstByte[name].map((run) => run.firstEventP50Ms);
  const gapP99 = (name: TargetName) => paced[name].map((run) => run.gapP99Ms);
  const relayP99 = (name: TargetName) => paced[name].map((run) => run.relayDelayP99Ms);
  const minus = (left: number, right: number) => left - right;
  return {
    firstByteStreamsPerRun: settings.firstByteStreams,
    pacedModel: model,
    pacedStreamsPerRun: settings.pacedStreams,
    pacedConcurrency: settings.pacedConcurrency,
    targets: {
      direct: summarize(firstByte.direct, paced.direct),
      proxy: summarize(firstByte.proxy, paced.proxy),
      gateway: summarize(firstByte.gateway, paced.gateway),
    },
    added: {
      gatewayFirstEventP50Ms: pairedSpread(firstP50('gateway'), firstP50('direct'), minus),
      gatewayFirstEventP99Ms: pairedSpread(
        firstByte.gateway.map((run) => run.firstEventP99Ms),
        firstByte.direct.map((run) => run.firstEventP99Ms),
        minus,
      ),
      proxyFirstEventP50Ms: pairedSpread(firstP50('proxy'), firstP50('direct'), minus),
      gatewayGapP99Ms: pairedSpread(gapP99('gateway'), gapP99('direct'), minus),
      proxyGapP99Ms: pairedSpread(gapP99('proxy'), gapP99('direct'), minus),
      gatewayRelayDelayP99Ms: pairedSpread(relayP99('gateway'), relayP99('direct'), minus),
      proxyRelayDelayP99Ms: pairedSpread(relayP99('proxy'), relayP99('direct'), minus),
    },
  };
}

/** Sequential zero-delay streams: the time until the first event reaches the client. */
async function runFirstByte(dispatcher: Agent, target: BenchTarget, streams: number): Promise<FirstByteRun> {
  const body = createStreamBody(normalModel);
  const firstEvents: number[] = [];
  let incompleteStreams = 0;
  for (let index = 0; index < streams; index++) {
    const timing = await readTarget(dispatcher, target, body);
    if (!timing || timing.status !== 200 || !timing.endedWithDone) incompleteStreams++;
    const first = timing?.eventTimesMs[0];
    if (first !== undefined) firstEvents.push(first);
  }
  return {
    firstEventP50Ms: percentile(firstEvents, 50),
    firstEventP99Ms: percentile(firstEvents, 99),
    incompleteStreams,
  };
}

/** Concurrent paced streams: every content event should arrive on its own, one interval after the previous. */
async function runPaced(
  dispatcher: Agent,
  target: BenchTarget,
  settings: BenchmarkSettings,
  model: string,
): Promise<PacedRun> {
  const body = createStreamBody(model);
  const chunkCount = settings.pacedChunkCount;
  const interval = settings.pacedIntervalMs;
  // role chunk, content chunks, finish chunk, usage chunk, [DONE]
  const eventsPerStream = chunkCount + 4;
  const timings = await runWithConcurrency(settings.pacedStreams, settings.pacedConcurrency, () =>
    readTarget(dispatcher, target, body),
  );
  const gaps: number[] = [];
  const reads: number[] = [];
  const relayDelays: number[] = [];
  let heldBack = 0;
  let delayed = 0;
  let eventsReceived = 0;
  let incompleteStreams = 0;
  for (const timing of timings) {
    if (!timing || timing.status !== 200 || !timing.endedWithDone || timing.eventTimesMs.length !== eventsPerStream)
      incompleteStreams++;
    if (!timing) continue;
    eventsReceived += timing.eventTimesMs.length;
    reads.push(timing.reads);
    relayDelays.push(...timing.relayDelaysMs);
    for (let index = 1; index <= chunkCount && index < timing.eventTimesMs.length; index++) {
      const gap = (timing.eventTimesMs[index] as number) - (timing.eventTimesMs[index - 1] as number);
      gaps.push(gap);
      if (gap < interval / 2) heldBack++;
      if (gap > interval * 1.5) delayed++;
    }
  }
  return {
    gapP50Ms: percentile(gaps, 50),
    gapP99Ms: percentile(gaps, 99),
    gapMaxMs: Math.max(...gaps),
    heldBack,
    delayed,
    eventsExpected: eventsPerStream * settings.pacedStreams,
    eventsReceived,
    incompleteStreams,
    readsPerStream: percentile(reads, 50),
    relayDelayP50Ms: percentile(relayDelays, 50),
    relayDelayP99Ms: percentile(relayDelays, 99),
    relayDelayMaxMs: Math.max(...relayDelays),
    relayHeldBack: relayDelays.filter((delay) => delay > interval / 2).length,
    stampedEvents: relayDelays.length,
  };
}

async function readTarget(dispatcher: Agent, target: BenchTarget, body: string): Promise<StreamTiming | undefined> {
  try {
    return await readEventStream({
      dispatcher,
      url: `${target.baseUrl}/chat/completions`,
      authorization: target.authorization,
      body,
    });
  } catch {
    return undefined;
  }
}

function summarize(firstByte: FirstByteRun[], paced: PacedRun[]): StreamTargetSummary {
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    firstEventP50Ms: spreadOf(firstByte.map((run) => run.firstEventP50Ms)),
    firstEventP99Ms: spreadOf(firstByte.map((run) => run.firstEventP99Ms)),
    gapP50Ms: spreadOf(paced.map((run) => run.gapP50Ms)),
    gapP99Ms: spreadOf(paced.map((run) => run.gapP99Ms)),
    gapMaxMs: spreadOf(paced.map((run) => run.gapMaxMs)),
    heldBack: sum(paced.map((run) => run.heldBack)),
    delayed: sum(paced.map((run) => run.delayed)),
    eventsExpected: sum(paced.map((run) => run.eventsExpected)),
    eventsReceived: sum(paced.map((run) => run.eventsReceived)),
    incompleteStreams:
      sum(paced.map((run) => run.incompleteStreams)) + sum(firstByte.map((run) => run.incompleteStreams)),
    readsPerStream: percentile(
      paced.map((run) => run.readsPerStream),
      50,
    ),
    relayDelayP50Ms: spreadOf(paced.map((run) => run.relayDelayP50Ms)),
    relayDelayP99Ms: spreadOf(paced.map((run) => run.relayDelayP99Ms)),
    relayDelayMaxMs: spreadOf(paced.map((run) => run.relayDelayMaxMs)),
    relayHeldBack: sum(paced.map((run) => run.relayHeldBack)),
    stampedEvents: sum(paced.map((run) => run.stampedEvents)),
  };
}
