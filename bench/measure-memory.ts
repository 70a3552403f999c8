// 5. Memory of the gateway and the proxy: idle, while holding many concurrent paced streams, and after they end.
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import type { BenchTarget } from './bench-targets.js';
import type { BenchmarkSettings } from './benchmark-settings.js';
import type { ProcessStats } from './child-control-protocol.js';
import type { QuietGuard } from './quiet-guard.js';
import { readEventStream } from './read-event-stream.js';
import { createStreamBody, pacedModel } from './request-bodies.js';
import type { BenchProcess } from './start-bench-processes.js';

/** Memory of one process across the stream test, in bytes. */
export interface StreamMemoryResult {
  model: string;
  streams: number;
  /** the most streams that had their first event and had not ended yet, at one moment */
  maxConcurrentOpen: number;
  completedStreams: number;
  incompleteStreams: number;
  rssBeforeBytes: number;
  /** highest RSS sampled while the streams were open */
  rssPeakBytes: number;
  heapUsedPeakBytes: number;
  /** after the streams ended and a short settle */
  rssAfterSettleBytes: number;
  /** after a further full garbage collection */
  rssAfterGcBytes: number;
  /** after `memoryIdleMs` more of idleness, with no forced collection; undefined when not measured */
  rssAfterIdleBytes: number | undefined;
  /** V8 heap committed after the forced collection and after the idle time: what V8 keeps for reuse until its memory reducer runs */
  heapTotalAfterGcBytes: number;
  heapTotalAfterIdleBytes: number | undefined;
}

const samplingIntervalMs = 200;

/** RSS of a freshly started process that has served a few requests. */
export async function measureIdleRss(benchProcess: BenchProcess): Promise<number> {
  await benchProcess.collectGarbage();
  await sleep(500);
  return (await benchProcess.stats()).rssBytes;
}

/** Opens `settings.memoryStreams` paced streams through `target` and samples its process's memory meanwhile. */
export async function measureStreamMemory(
  target: BenchTarget,
  settings: BenchmarkSettings,
  guard: QuietGuard,
): Promise<StreamMemoryResult> {
  return guard.run(`memory with ${settings.memoryStreams} streams`, () => holdStreams(target, settings));
}

async function holdStreams(target: BenchTarget, settings: BenchmarkSettings): Promise<StreamMemoryResult> {
  const benchProcess = target.process;
  if (!benchProcess) throw new Error(`${target.name} has no process to measure`);
  const model = pacedModel(settings.memoryChunkCount, settings.memoryIntervalMs);
  const body = createStreamBody(model);
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 });
  const rssBeforeBytes = (await benchProcess.stats()).rssBytes;
  let open = 0;
  let maxConcurrentOpen = 0;
  let rssPeakBytes = rssBeforeBytes;
  let heapUsedPeakBytes = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const stats = await benchProcess.stats();
      rssPeakBytes = Math.max(rssPeakBytes, stats.rssBytes);
      heapUsedPeakBytes = Math.max(heapUsedPeakBytes, stats.heapUsedBytes);
      await sleep(samplingIntervalMs);
    }
  })();

  const holdOneStream = async (): Promise<boolean> => {
    let started = false;
    try {
      const timing = await readEventStream({
        dispatcher,
        url: `${target.baseUrl}/chat/completions`,
        authorization: target.authorization,
        body,
        onFirstEvent: () => {
          started = true;
          open++;
          maxConcurrentOpen = Math.max(maxConcurrentOpen, open);
        },
      });
      return (
        timing.status === 200 && timing.endedWithDone && timing.eventTimesMs.length === settings.memoryChunkCount + 4
      );
    } catch {
      return false;
    } finally {
      if (started) open--;
    }
  };
  const streams: Promise<boolean>[] = [];
  for (let index = 0; index < settings.memoryStreams; index++) {
    // Opened in batches so the listen backlog, not the process under test, is never the bottleneck.
    if (index > 0 && index % settings.memoryOpenBatch === 0) await sleep(50);
    streams.push(holdOneStream());
  }
  const outcomes = await Promise.all(streams);
  sampling = false;
  await sampler;
  await dispatcher.close();
  await sleep(settings.memorySettleMs);
  const rssAfterSettleBytes = (await benchProcess.stats()).rssBytes;
  await benchProcess.collectGarbage();
  await sleep(500);
  const afterGc = await benchProcess.stats();
  let afterIdle: ProcessStats | undefined;
  if (settings.memoryIdleMs > 0) {
    await sleep(settings.memoryIdleMs);
    afterIdle = await benchProcess.stats();
  }
  const completedStreams = outcomes.filter(Boolean).length;
  return {
    model,
    streams: settings.memoryStreams,
    maxConcurrentOpen,
    completedStreams,
    incompleteStreams: settings.memoryStreams - completedStreams,
    rssBeforeBytes,
    rssPeakBytes,
    heapUsedPeakBytes,
    rssAfterSettleBytes,
    rssAfterGcBytes: afterGc.rssBytes,
    rssAfterIdleBytes: afterIdle?.rssBytes,
    heapTotalAfterGcBytes: afterGc.heapTotalBytes,
    heapTotalAfterIdleBytes: afterIdle?.heapTotalBytes,
  };
}
