// On a shared machine, waits (up to a limit) until other processes leave the cores alone before measuring.
import { setTimeout as sleep } from 'node:timers/promises';
import { foreignCpuBetween, snapshotCpu } from './measure-foreign-cpu.js';

/** Foreign load, in cores, below which measurements count as undisturbed. */
export const quietBelowCores = 0.1;
const sampleMs = 2_000;

/** Returns the foreign load (in cores) of the last sample; logs while it waits. */
export async function waitForQuietMachine(maximumWaitSeconds: number, log: (message: string) => void): Promise<number> {
  const deadline = Date.now() + maximumWaitSeconds * 1000;
  let lastLogAt = 0;
  for (;;) {
    const before = await snapshotCpu([]);
    await sleep(sampleMs);
    const foreign = foreignCpuBetween('idle check', before, await snapshotCpu([])).foreignCores;
    if (foreign < quietBelowCores) return foreign;
    if (Date.now() >= deadline) {
      log(`warning: the machine is busy (${foreign.toFixed(2)} cores used by other processes); measuring anyway`);
      return foreign;
    }
    if (Date.now() - lastLogAt >= 30_000) {
      log(`other processes use ${foreign.toFixed(2)} cores; waiting for a quiet machine`);
      lastLogAt = Date.now();
    }
  }
}
