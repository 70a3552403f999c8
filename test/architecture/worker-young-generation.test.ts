// `npm start` gives the main thread 4 MB semi-spaces with V8's `--max-semi-space-size` (ADR 0003). That flag is
// process-wide and overrides a worker's own `resourceLimits`, so the SQLite writer's heap held a young generation as
// large as the main thread's, which its settlement batches outlive anyway (ADR 0016). This test starts, under the
// launch flags, a main thread and workers that allocate until V8 has grown their young generation as far as it may,
// and reads the size each reached.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readGatewayLaunch } from '../../bench/read-gateway-launch.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');

// Keeps each batch alive through the next one, so scavenges find survivors and V8 grows the new space to its limit.
const growNewSpace = `
import { getHeapSpaceStatistics } from 'node:v8';
export function largestNewSpace() {
  let largest = 0;
  let previous = [];
  for (let round = 0; round < 300; round++) {
    const batch = Array.from({ length: 20_000 }, (_, index) => ({ index, text: 'row ' + index }));
    largest = Math.max(largest, getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size);
    previous = batch;
  }
  // Read once, so the batches are used and cannot be optimised away.
  if (previous.length === 0) throw new Error('no batch was kept');
  return largest;
}
`;
const workerScript = `
import { parentPort } from 'node:worker_threads';
${growNewSpace}
parentPort.postMessage(largestNewSpace());
`;
const measure = `
import { Worker } from 'node:worker_threads';
import { startWorkerThread } from ${JSON.stringify(path.join(projectRoot, 'src/worker-threads/start-worker-thread.ts'))};
${growNewSpace}
const script = new URL('data:text/javascript,' + encodeURIComponent(${JSON.stringify(workerScript)}));
const largestIn = (worker) => new Promise((resolve, reject) => {
  worker.once('error', reject);
  worker.once('message', (size) => worker.terminate().then(() => resolve(size)));
});
const mainThread = largestNewSpace();
const plainWorker = await largestIn(new Worker(script));
const smallWorker = await largestIn(startWorkerThread(script, { youngGenerationMb: 3 }));
const mainThreadAfter = largestNewSpace();
process.stdout.write(JSON.stringify({ mainThread, plainWorker, smallWorker, mainThreadAfter }));
`;

/** The largest new space (both semi-spaces, in MiB) each thread reached, under the gateway's launch flags. */
async function measureNewSpaces(): Promise<
  Record<'mainThread' | 'plainWorker' | 'smallWorker' | 'mainThreadAfter', number>
> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...readGatewayLaunch().nodeFlags, '--import', 'tsx', '--input-type=module', '--eval', measure],
    {
      cwd: projectRoot,
      timeout: 60_000,
    },
  );
  const sizes = JSON.parse(stdout) as Record<string, number>;
  return Object.fromEntries(Object.entries(sizes).map(([thread, bytes]) => [thread, bytes / 2 ** 20])) as Awaited<
    ReturnType<typeof measureNewSpaces>
  >;
}

describe('young generation of worker threads under the launch flags', () => {
  it('is the one each worker asks for, while the main thread keeps the launch size', async () => {
    const sizes = await measureNewSpaces();
    // The launch flag: two 4 MB semi-spaces for the main thread, and for a worker started the plain way.
    expect(sizes.mainThread).toBe(8);
    expect(sizes.plainWorker).toBe(8);
    // A worker asking for 3 MB gets two 1 MB semi-spaces, and the main thread's heap stays as launched.
    expect(sizes.smallWorker).toBe(2);
    expect(sizes.mainThreadAfter).toBe(8);
  }, 90_000);
});
