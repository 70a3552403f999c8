import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

let launchYoungGenerationFlagCleared = false;

/**
 * Starts a worker thread whose heap's young generation is at most `youngGenerationMb` megabytes (three semi-spaces'
 * worth: V8 gives a third to each of its two semi-spaces and to new large objects).
 *
 * `npm start` sets V8's `--max-semi-space-size` for the main thread (ADR 0003), and that flag overrides a worker's
 * `resourceLimits`. V8 reads it only while it sets up an isolate's heap, so once the main thread runs, clearing it
 * leaves the main thread's heap as launched and lets each worker's own limit apply (ADR 0016).
 */
export function startWorkerThread(script: URL, options: WorkerOptions & { youngGenerationMb: number }): Worker {
  if (!launchYoungGenerationFlagCleared) {
    setFlagsFromString('--max-semi-space-size=0');
    launchYoungGenerationFlagCleared = true;
  }
  const { youngGenerationMb, ...workerOptions } = options;
  return new Worker(script, {
    ...workerOptions,
    resourceLimits: { ...workerOptions.resourceLimits, maxYoungGenerationSizeMb: youngGenerationMb },
  });
}
